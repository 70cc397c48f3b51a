import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalStore
import LifeSignalTestSupport
import Testing

/// LifeSignal from a basic phone: texts answered, keys pressed during calls, and calls nobody
/// answered tried again before the next channel.
@Suite("Texts and calls, both ways")
struct TextRepliesTests {
    typealias Courier = HelpIsComingTests.Courier

    /// Ada (Paris, 8-hour rhythm) watched over by Bob; both sign in with their numbers.
    /// (The own-prompts suite starts from it too.)
    static func scenario() async throws -> (TestWorld, Caller, Caller) {
        let world = try await TestWorld()
        var ada = try await world.signUp("Ada", phone: "+33612345678")
        let bob = try await world.signUp("Bob", phone: "+447700900101")
        ada.user = try await world.profiles.updateProfile(
            ada, ProfileChanges(schedule: .interval(seconds: 8 * 3600), timeZone: "Europe/Paris"))
        try await world.link(responder: bob, dependent: ada)
        return (world, ada, bob)
    }

    func scenario() async throws -> (TestWorld, Caller, Caller) { try await Self.scenario() }

    @Test func okChecksInAndSaysUntilWhenOnce() async throws {
        let (world, ada, _) = try await scenario()
        let reply = try await world.text(from: ada.user.phone, "Ok!", id: "SM1")
        // 08:00 UTC is 09:00 in Paris; eight hours later is 17:00 there.
        #expect(reply == "Thanks Ada, you're checked in until today at 17:00.")
        let checkIns = try await world.checkIns.checkIns(ada, before: nil, limit: 10)
        #expect(checkIns.map(\.source) == [.smsReply])
        #expect(try await world.timeline.timeline(ada).last?.summary == "Checked in by text")

        // The provider posts the same text twice: still one check-in.
        world.clock.advance(by: 60)
        _ = try await world.text(from: ada.user.phone, "Ok!", id: "SM1")
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 10).count == 1)
        // A new "yes" is a new check-in, moving the deadline.
        let again = try await world.text(from: ada.user.phone, " yes. ", id: "SM2")
        #expect(again == "Thanks Ada, you're checked in until today at 17:01.")
    }

    @Test func okAfterAMissedCheckInTellsTheResponders() async throws {
        let (world, ada, bob) = try await scenario()
        let engine = EscalationEngine(core: world.core, instance: "texts")
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        world.clock.advance(by: 8 * 3600 + 11 * 60)
        try await engine.runUntilIdle()
        #expect(try await world.checkIns.status(ada).openIncident?.kind == .missedCheckIn)

        let reply = try await world.text(from: ada.user.phone, "I'm OK", id: "SM7")
        #expect(reply.hasPrefix("Thanks Ada, you're checked in until "))
        #expect(reply.hasSuffix(" We're telling Bob Tester you're OK."))
        #expect(try await world.checkIns.status(ada).openIncident == nil)
        #expect(try await world.notifications(bob).first?.type == .incidentResolved)
    }

    @Test func strangersAndNoResponderAreToldPlainly() async throws {
        let world = try await TestWorld()
        let stranger = try await world.text(from: "+15550001111", "OK", id: "SM1")
        #expect(stranger.hasPrefix("This number isn't on LifeSignal."))
        _ = try await world.signUp("Cy", phone: "+447700900102")
        let lonely = try await world.text(from: "+447700900102", "ok", id: "SM2")
        #expect(lonely.hasSuffix("Nobody is watching over you yet: add someone at \(ServiceConfiguration().publicBaseURL)/contacts."))
        let sos = try await world.text(from: "+447700900102", "SOS", id: "SM3")
        #expect(sos.hasPrefix("Nobody is watching over you on LifeSignal yet"))
        let help = try await world.text(from: "+447700900102", "what is this", id: "SM4")
        #expect(help.hasPrefix("LifeSignal: text OK to check in"))
    }

    @Test func sosRaisesTheAlertOnlyWhenConfirmed() async throws {
        let (world, ada, bob) = try await scenario()
        let first = try await world.text(from: ada.user.phone, "sos", id: "SM1")
        #expect(first == "Text SOS again within 5 minutes to alert Bob Tester. If you are in danger, call your local emergency number.")
        #expect(try await world.checkIns.status(ada).openIncident == nil)

        // Too late: the next SOS asks again.
        world.clock.advance(by: 5 * 60 + 1)
        _ = try await world.text(from: ada.user.phone, "SOS", id: "SM2")
        #expect(try await world.checkIns.status(ada).openIncident == nil)
        world.clock.advance(by: 60)
        let confirmed = try await world.text(from: ada.user.phone, "SOS!", id: "SM3")
        #expect(
            confirmed
                == "Your emergency alert is going to Bob Tester. We'll text you when someone is on it. When you're safe, text SAFE twice to end it."
        )
        #expect(try await world.checkIns.status(ada).openIncident?.kind == .manualAlert)
        #expect(try await world.notifications(bob).first?.type == .manualAlert)

        // The next SOS needs its own confirmation again.
        let next = try await world.text(from: ada.user.phone, "SOS", id: "SM4")
        #expect(next.hasPrefix("Text SOS again"))
    }

    @Test func aResponderSaysOnItByText() async throws {
        let (world, ada, bob) = try await scenario()
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(emergencyNote: "Key under the mat"))
        let incident = try await world.incidents.raiseAlert(ada)
        let reply = try await world.text(from: bob.user.phone, "On it 👍", id: "SM1")
        #expect(
            reply
                == "Thanks. Ada Tester and the others are being told you're on it. Ada Tester's number: +33612345678. Their note: Key under the mat"
        )
        let status = try await world.checkIns.status(ada)
        #expect(status.openIncident?.id == incident.id)
        #expect(status.openIncident?.acknowledgedByName == "Bob Tester")
        #expect(try await world.notifications(ada).first?.title == "Bob Tester is on it")
        // Nothing left to answer.
        let again = try await world.text(from: bob.user.phone, "ON IT", id: "SM2")
        #expect(again == "Nobody you watch over needs help right now. Thank you.")
    }

    @Test func withSeveralAlertsTheReplyAsksWhichAndANumberPicks() async throws {
        let (world, ada, bob) = try await scenario()
        let carl = try await world.signUp("Carl", phone: "+447700900103")
        try await world.link(responder: bob, dependent: carl)
        _ = try await world.incidents.raiseAlert(ada)
        world.clock.advance(by: 1)
        let carlsAlert = try await world.incidents.raiseAlert(carl)

        let list = try await world.text(from: bob.user.phone, "1", id: "SM1")
        #expect(list == "2 people need help. Reply 1 for Ada Tester, 2 for Carl Tester to say you're on it.")
        #expect(try await world.checkIns.status(ada).openIncident?.acknowledgedBy == nil)

        let picked = try await world.text(from: bob.user.phone, "2", id: "SM2")
        #expect(picked.hasPrefix("Thanks. Carl Tester and the others are being told you're on it."))
        #expect(try await world.checkIns.status(carl).openIncident?.id == carlsAlert.id)
        #expect(try await world.checkIns.status(carl).openIncident?.acknowledgedBy == bob.user.id)
        #expect(try await world.checkIns.status(ada).openIncident?.acknowledgedBy == nil)
        // One alert left: "1" answers it.
        _ = try await world.text(from: bob.user.phone, "1", id: "SM3")
        #expect(try await world.checkIns.status(ada).openIncident?.acknowledgedBy == bob.user.id)
    }

    @Test func aStrangerCannotAnswerSomeoneElsesAlert() async throws {
        let (world, ada, _) = try await scenario()
        _ = try await world.signUp("Eve", phone: "+447700900666")
        _ = try await world.incidents.raiseAlert(ada)
        let reply = try await world.text(from: "+447700900666", "ON IT", id: "SM1")
        #expect(reply == "Nobody you watch over needs help right now. Thank you.")
        #expect(try await world.checkIns.status(ada).openIncident?.acknowledgedBy == nil)
    }

    @Test func stopSwitchesTextsOffUntilStart() async throws {
        let (world, ada, bob) = try await scenario()
        let courier = Courier(world)
        try await world.addProvedChannel(bob, ChannelRegistration(kind: .sms, address: bob.user.phone))
        _ = try await courier.deliver(.delivered(providerID: nil))

        let stop = try await world.text(from: bob.user.phone, "STOP", id: "SM1")
        #expect(stop.hasPrefix("You won't get texts from LifeSignal on this number any more."))
        #expect(try await world.timeline.timeline(bob).last?.kind == "texts_stopped")
        // An SOS while texts are off (it goes to every channel at once) calls the number
        // instead of texting it.
        let first = try await world.incidents.raiseAlert(ada)
        let sent = try await courier.deliver(.delivered(providerID: nil)) { $0.message.recipientID == bob.user.id }
        #expect(Set(sent.map(\.message.channel)) == [.voice, .log])
        #expect(sent.allSatisfy { $0.message.address == bob.user.phone })
        _ = try await world.incidents.clearAlert(ada)
        _ = try await courier.deliver(.delivered(providerID: nil))

        // Texts on again: the next alert is texted.
        let start = try await world.text(from: bob.user.phone, "start", id: "SM2")
        #expect(start.hasPrefix("Texts from LifeSignal are on again for this number."))
        world.clock.advance(by: 3600)
        let second = try await world.incidents.raiseAlert(ada)
        #expect(second.id != first.id)
        let texted = try await courier.deliver(.delivered(providerID: nil)) { $0.message.recipientID == bob.user.id }
        #expect(Set(texted.map(\.message.channel)) == [.sms, .log])
    }

    @Test func pressingOneOnAReminderCallChecksIn() async throws {
        let (world, ada, _) = try await scenario()
        let courier = Courier(world)
        try await world.addProvedChannel(ada, ChannelRegistration(kind: .voice, address: ada.user.phone, categories: [.system, .alerts]))
        _ = try await courier.deliver(.delivered(providerID: nil))
        let engine = EscalationEngine(core: world.core, instance: "calls")
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        world.clock.advance(by: 8 * 3600 - 30 * 60)
        #expect(try await engine.runPass().reminders == 1)
        let call = try await courier.deliver(.sent(providerID: "CA-reminder")) { $0.message.kind == .reminder }
        #expect(call.map(\.message.channel) == [.voice])

        world.clock.advance(by: 60)
        #expect(try await world.replies.receiveKeypress(callID: "CA-reminder", digits: "2") == "No key 1 was pressed. Goodbye.")
        let spoken = try await world.replies.receiveKeypress(callID: "CA-reminder", digits: "1")
        // 15:31 UTC plus eight hours is 00:31 in Paris.
        #expect(spoken == "Thank you. You're checked in until tomorrow at 00:31. Goodbye.")
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 1).first?.source == .phoneKeypad)
        #expect(try await world.replies.receiveKeypress(callID: "CA-unknown", digits: "1") == "Sorry, this call has ended. Goodbye.")
    }

    @Test func pressingOneOnAnAlertCallSaysOnIt() async throws {
        let (world, ada, bob) = try await scenario()
        let courier = Courier(world)
        try await world.addProvedChannel(bob, ChannelRegistration(kind: .voice, address: bob.user.phone))
        _ = try await courier.deliver(.delivered(providerID: nil))
        _ = try await world.incidents.raiseAlert(ada)
        let call = try await courier.deliver(.sent(providerID: "CA-alert")) { $0.message.channel == .voice }
        #expect(call.map(\.message.recipientID) == [bob.user.id])
        let spoken = try await world.replies.receiveKeypress(callID: "CA-alert", digits: "1")
        #expect(spoken == "Thank you. Ada Tester and the others are being told you're on it. Goodbye.")
        #expect(try await world.checkIns.status(ada).openIncident?.acknowledgedBy == bob.user.id)
        // Pressing it again changes nothing; after the all-clear the call says so.
        _ = try await world.incidents.clearAlert(ada)
        #expect(
            try await world.replies.receiveKeypress(callID: "CA-alert", digits: "1") == "Thank you. This alert has already ended. Goodbye.")
    }

    /// Ada misses her check-in: the alert goes to each responder's first channel, then the next.
    func missCheckIn(_ world: TestWorld, _ ada: Caller) async throws {
        let engine = EscalationEngine(core: world.core, instance: "missed")
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        world.clock.advance(by: 8 * 3600 + 11 * 60)
        try await engine.runUntilIdle()
    }

    /// Bob is reached by a call first; Ada misses her check-in. `toBob` picks his alert's deliveries.
    func bobCalledForAdasMissedCheckIn() async throws -> (TestWorld, Caller, Courier, (OutboxItem) -> Bool) {
        let (world, ada, bob) = try await scenario()
        let courier = Courier(world)
        try await world.addProvedChannel(bob, ChannelRegistration(kind: .voice, address: bob.user.phone))
        _ = try await courier.deliver(.delivered(providerID: nil))
        try await missCheckIn(world, ada)
        let bobID = bob.user.id
        return (world, ada, courier, { $0.message.recipientID == bobID && $0.message.kind == .incidentOpened })
    }

    @Test func anUnansweredAlertCallIsPlacedAgainThenFallsBack() async throws {
        let (world, ada, courier, toBob) = try await bobCalledForAdasMissedCheckIn()

        for attempt in 1...ServiceCore.alertCallAttempts {
            let call = try await courier.deliver(.sent(providerID: "CA-\(attempt)"), where: toBob)
            #expect(call.map(\.message.channel) == [.voice], "call \(attempt)")
            try await world.notifications.recordProviderStatus(
                providerID: "CA-\(attempt)", status: .failed, reason: "Nobody answered the call.", unanswered: true)
            // A late duplicate of the same status changes nothing.
            try await world.notifications.recordProviderStatus(
                providerID: "CA-\(attempt)", status: .failed, reason: "Nobody answered the call.", unanswered: true)
            if attempt < ServiceCore.alertCallAttempts {
                // Not due again before the retry delay.
                #expect(try await courier.deliver(.sent(providerID: "CA-early"), where: toBob).isEmpty)
                world.clock.advance(by: ServiceCore.alertCallRetryDelay)
            }
        }
        // Three calls unanswered: the next channel (the verified number, by default) is tried.
        let fallback = try await courier.deliver(.delivered(providerID: nil), where: toBob)
        #expect(fallback.map(\.message.channel) == [.log])
        let summaries = try await world.timeline.timeline(ada).map(\.summary)
        #expect(summaries.filter { $0.hasSuffix(", calling again in 2 minutes") }.count == 2)
        #expect(
            summaries.contains { $0.hasPrefix("Bob Tester: voice failed (Nobody answered the call.)") && !$0.contains("calling again") })
        let bobProgress = try #require(try await world.checkIns.status(ada).openIncident?.responders?.first)
        #expect(bobProgress.deliveries.map(\.channel) == [.voice, .log])
        #expect(bobProgress.reach == .reached)
    }

    @Test func anAlertThatEndedIsNotCalledAgainNorFallsBack() async throws {
        let (world, ada, courier, toBob) = try await bobCalledForAdasMissedCheckIn()
        #expect(try await courier.deliver(.sent(providerID: "CA-1"), where: toBob).count == 1)
        // Ada checks in before the provider says nobody answered.
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        try await world.notifications.recordProviderStatus(
            providerID: "CA-1", status: .failed, reason: "Nobody answered the call.", unanswered: true)
        world.clock.advance(by: ServiceCore.alertCallRetryDelay)
        #expect(try await courier.deliver(.sent(providerID: "CA-2"), where: toBob).isEmpty)
    }

    @Test func aCallThatFailedForAnotherReasonGoesToTheNextChannelAtOnce() async throws {
        let (world, ada, courier, toBob) = try await bobCalledForAdasMissedCheckIn()
        _ = try await courier.deliver(.sent(providerID: "CA-1"), where: toBob)
        try await world.notifications.recordProviderStatus(providerID: "CA-1", status: .failed, reason: "The call could not be placed.")
        #expect(try await courier.deliver(.delivered(providerID: nil), where: toBob).map(\.message.channel) == [.log])
    }

    /// Bob watches over Ada, Carl and Dan; Ada's alert, then Carl's, are open.
    func bobWatchesThree() async throws -> (TestWorld, Caller, Caller, Caller, Caller) {
        let (world, ada, bob) = try await scenario()
        let carl = try await world.signUp("Carl", phone: "+447700900103")
        let dan = try await world.signUp("Dan", phone: "+447700900104")
        for dependent in [carl, dan] { try await world.link(responder: bob, dependent: dependent) }
        _ = try await world.incidents.raiseAlert(ada)
        world.clock.advance(by: 1)
        _ = try await world.incidents.raiseAlert(carl)
        return (world, ada, bob, carl, dan)
    }

    @Test func aNumberFromTheListPicksTheAlertThatWasListed() async throws {
        let (world, ada, bob, _, dan) = try await bobWatchesThree()
        let list = try await world.text(from: bob.user.phone, "ON IT", id: "SM1")
        #expect(list == "2 people need help. Reply 1 for Ada Tester, 2 for Carl Tester to say you're on it.")
        let wrong = try await world.text(from: bob.user.phone, "7", id: "SM1b")
        #expect(wrong == "There is no 7 in the list. " + list)
        // Meanwhile Ada's alert ends and Dan raises one: "2" is still Carl, not Dan.
        _ = try await world.incidents.clearAlert(ada)
        world.clock.advance(by: 1)
        _ = try await world.incidents.raiseAlert(dan)
        let picked = try await world.text(from: bob.user.phone, "2", id: "SM2")
        #expect(picked.hasPrefix("Thanks. Carl Tester and the others are being told you're on it."))
        #expect(try await world.checkIns.status(dan).openIncident?.acknowledgedBy == nil)
    }

    @Test func aListedAlertThatEndedIsSaidSoAndTheListSentAgain() async throws {
        let (world, ada, bob, carl, dan) = try await bobWatchesThree()
        world.clock.advance(by: 1)
        _ = try await world.incidents.raiseAlert(dan)
        _ = try await world.text(from: bob.user.phone, "ON IT", id: "SM1")
        _ = try await world.incidents.clearAlert(ada)
        // "1" named Ada, whose alert ended: nothing is claimed, and the list is as it is now.
        let stale = try await world.text(from: bob.user.phone, "1", id: "SM2")
        #expect(
            stale
                == "That alert has ended or someone is already on it. 2 people need help. Reply 1 for Carl Tester, 2 for Dan Tester to say you're on it."
        )
        #expect(try await world.checkIns.status(carl).openIncident?.acknowledgedBy == nil)
        #expect(try await world.checkIns.status(dan).openIncident?.acknowledgedBy == nil)
    }

    @Test func theSameSOSTextTwiceIsNotItsOwnConfirmation() async throws {
        let (world, ada, _) = try await scenario()
        _ = try await world.text(from: ada.user.phone, "SOS", id: "SM-same")
        let again = try await world.text(from: ada.user.phone, "SOS", id: "SM-same")
        #expect(again.hasPrefix("Text SOS again"))
        #expect(try await world.checkIns.status(ada).openIncident == nil)
    }

    @Test func strangersGetTheHelpTextAtMostOnceAnHour() async throws {
        let world = try await TestWorld()
        #expect(try await world.text(from: "+15550001111", "hello", id: "SM1").hasPrefix("This number isn't on LifeSignal."))
        #expect(try await world.replies.receiveText(from: "+15550001111", body: "hello?", messageID: "SM2") == nil)
        world.clock.advance(by: Replies.helpInterval)
        #expect(try await world.text(from: "+15550001111", "hello", id: "SM3").hasPrefix("This number isn't on LifeSignal."))
    }

    @Test func anOldNumberNoLongerSpeaksForThePerson() async throws {
        let (world, ada, _) = try await scenario()
        // Ada's old number was also her text channel.
        try await world.addProvedChannel(ada, ChannelRegistration(kind: .sms, address: ada.user.phone))
        _ = try await world.accounts.requestPhoneChange(ada, phone: "+33698765432", clientAddress: "test")
        _ = try await world.accounts.confirmPhoneChange(ada, phone: "+33698765432", code: world.code(for: "+33698765432")!)
        let fromOld = try await world.text(from: "+33612345678", "OK", id: "SM1")
        #expect(fromOld.hasPrefix("This number isn't on LifeSignal."))
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 5).isEmpty)
        #expect(try await world.channels.channels(ada).allSatisfy { $0.address != "+33612345678" || !$0.isVerified })
    }

    @Test func aDependentCannotClaimTheirResponsersAlert() async throws {
        let (world, ada, bob) = try await scenario()
        // Bob raises an SOS: Ada is his dependent, not his responder.
        _ = try await world.incidents.raiseAlert(bob)
        let reply = try await world.text(from: ada.user.phone, "ON IT", id: "SM1")
        #expect(reply == "Nobody you watch over needs help right now. Thank you.")
        #expect(try await world.checkIns.status(bob).openIncident?.acknowledgedBy == nil)
    }

    @Test func aLateTextFailureFallsBackToTheNextChannel() async throws {
        let (world, ada, bob) = try await scenario()
        let courier = Courier(world)
        try await world.addProvedChannel(bob, ChannelRegistration(kind: .sms, address: "+447700900555"))
        _ = try await courier.deliver(.delivered(providerID: nil))
        try await missCheckIn(world, ada)
        let toBob: (OutboxItem) -> Bool = { $0.message.recipientID == bob.user.id && $0.message.kind == .incidentOpened }
        #expect(try await courier.deliver(.sent(providerID: "SM-alert"), where: toBob).map(\.message.channel) == [.sms])
        try await world.notifications.recordProviderStatus(
            providerID: "SM-alert", status: .failed, reason: "The text message could not be delivered.")
        // Not retried (texts are not calls): Bob's verified number is tried at once.
        let fallback = try await courier.deliver(.delivered(providerID: nil), where: toBob)
        #expect(fallback.map(\.message.channel) == [.log])
        #expect(fallback.map(\.message.address) == [bob.user.phone])
        #expect(
            try await world.timeline.timeline(ada).contains {
                $0.summary == "Bob Tester: sms failed (The text message could not be delivered.)"
            })
    }
}

extension TestWorld {
    /// What LifeSignal texts back to `from` ("" when it sends nothing).
    func text(from: String, _ body: String, id: String) async throws -> String {
        try await replies.receiveText(from: from, body: body, messageID: id) ?? ""
    }
}
