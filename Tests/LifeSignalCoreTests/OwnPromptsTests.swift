import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalStore
import LifeSignalTestSupport
import Testing

/// The person in trouble hears her own prompts on every channel, never a responder's, and
/// what she answers is understood as hers: "Reply OK if you're safe", "Press 1 if you're safe,
/// press 9 to keep your alert on", and `SAFE` twice ends an SOS raised by text.
@Suite("The person's own prompts")
struct OwnPromptsTests {
    typealias Courier = HelpIsComingTests.Courier

    static let keys = "https://lifesignal.test/twilio/voice"

    /// Ada (Paris, 8-hour rhythm, default 10 minutes' grace) watched over by Bob.
    func scenario() async throws -> (TestWorld, Caller, Caller) { try await TextRepliesTests.scenario() }

    /// Ada's reminders, last calls and alerts reach her on `kind` first.
    func reachAda(on kind: ChannelKind, _ world: TestWorld, _ ada: Caller, _ courier: Courier) async throws {
        _ = try await world.addProvedChannel(
            ada, ChannelRegistration(kind: kind, address: ada.user.phone, categories: [.system, .alerts]))
        _ = try await courier.deliver(.delivered(providerID: nil))
    }

    func missCheckIn(_ world: TestWorld, _ ada: Caller, after seconds: TimeInterval = 8 * 3600 + 11 * 60) async throws {
        let engine = EscalationEngine(core: world.core, instance: "own-prompts")
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        world.clock.advance(by: seconds)
        try await engine.runUntilIdle()
    }

    @Test func herAlertNoticeCarriesHerPromptsOnATextAndACall() async throws {
        let (world, ada, bob) = try await scenario()
        let courier = Courier(world)
        try await reachAda(on: .sms, world, ada, courier)
        _ = try await world.incidents.raiseAlert(ada)
        let hers = try #require(try await courier.deliver(.sent(providerID: "SM-ada")) { $0.message.recipientID == ada.user.id }.first)
        let his = try #require(try await courier.deliver(.delivered(providerID: nil)) { $0.message.recipientID == bob.user.id }.first)
        #expect(hers.message.channel == .sms)
        #expect(hers.message.kind == .alertSent)

        let text = TwilioChannel.smsText(hers.message)
        #expect(text.hasPrefix("Bob Tester has been alerted\n"))
        #expect(text.hasSuffix("\nReply OK if you're safe."))
        #expect(!text.contains("Reply 1") && !text.contains("ON IT"))
        // Bob's alert keeps the responder's prompt.
        #expect(TwilioChannel.smsText(his.message).hasSuffix("Reply 1 or ON IT to say you're on it."))

        let call = TwilioChannel.twiml(hers.message, voice: nil, keypressURL: Self.keys)
        #expect(call.contains("<Say>Press 1 if you&apos;re safe, press 9 to keep your alert on.</Say>"))
        #expect(!call.contains("say you&apos;re on it"))
        #expect(TwilioChannel.twiml(his.message, voice: nil, keypressURL: Self.keys).contains("Press 1 to say you&apos;re on it."))
    }

    @Test func herKeyOneDuringHerSOSKeepsTheAlertAndTellsHerSo() async throws {
        let (world, ada, bob) = try await scenario()
        let courier = Courier(world)
        try await reachAda(on: .voice, world, ada, courier)
        let incident = try await world.incidents.raiseAlert(ada)
        let call = try await courier.deliver(.sent(providerID: "CA-ada")) { $0.message.recipientID == ada.user.id }
        #expect(call.map(\.message.kind) == [.alertSent])
        #expect(call.map(\.message.channel) == [.voice])

        let one = try await world.replies.receiveKeypress(callID: "CA-ada", digits: "1")
        #expect(
            one
                == "Your emergency alert is still on. We keep alerting Bob Tester. To end it, text SAFE twice to this number, or clear it in the app. Goodbye."
        )
        let status = try await world.checkIns.status(ada)
        #expect(status.openIncident?.id == incident.id)
        #expect(status.openIncident?.acknowledgedBy == nil)
        // Never taken as a responder's "I'm on it".
        #expect(try await world.notifications(bob).allSatisfy { $0.type != .incidentAcknowledged })

        #expect(
            try await world.replies.receiveKeypress(callID: "CA-ada", digits: "9")
                == "Your alert stays on. We keep alerting Bob Tester. Goodbye.")
        #expect(
            try await world.replies.receiveKeypress(callID: "CA-ada", digits: "4")
                == "No key 1 or 9 was pressed. Your alert stays on. Goodbye.")
        #expect(try await world.checkIns.status(ada).openIncident?.kind == .manualAlert)

        // Once she cleared it, the call says so.
        _ = try await world.incidents.clearAlert(ada)
        #expect(
            try await world.replies.receiveKeypress(callID: "CA-ada", digits: "1") == "Thank you. Your alert has already ended. Goodbye.")
    }

    @Test func herKeyOneAfterAMissedCheckInChecksHerIn() async throws {
        let (world, ada, bob) = try await scenario()
        let courier = Courier(world)
        try await reachAda(on: .voice, world, ada, courier)
        try await missCheckIn(world, ada)
        let call = try await courier.deliver(.sent(providerID: "CA-missed")) { $0.message.kind == .alertSent }
        #expect(call.map(\.message.recipientID) == [ada.user.id])

        let spoken = try await world.replies.receiveKeypress(callID: "CA-missed", digits: "1")
        #expect(spoken.hasPrefix("Thank you. You're checked in until "))
        #expect(spoken.hasSuffix(" We're telling Bob Tester you're OK. Goodbye."))
        #expect(try await world.checkIns.status(ada).openIncident == nil)
        #expect(try await world.notifications(bob).first?.type == .incidentResolved)
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 1).first?.source == .phoneKeypad)
    }

    @Test func theReminderAndLastCallSayWhoIsAlertedAndHowToAnswer() async throws {
        let (world, ada, _) = try await scenario()
        let courier = Courier(world)
        try await reachAda(on: .sms, world, ada, courier)
        // Half an hour before the deadline: the reminder.
        try await missCheckIn(world, ada, after: 8 * 3600 - 29 * 60)
        let reminder = try #require(try await courier.deliver(.sent(providerID: "SM-rem")) { $0.message.kind == .reminder }.first)
        #expect(TwilioChannel.smsText(reminder.message).hasSuffix("\nReply OK to check in."))
        // At the deadline, inside the grace period: the last call.
        world.clock.advance(by: 30 * 60)
        let engine = EscalationEngine(core: world.core, instance: "own-prompts")
        try await engine.runUntilIdle()
        let last = try #require(try await courier.deliver(.sent(providerID: "CA-last")) { $0.message.kind == .nonResponsive }.first)
        // A minute past the deadline: the minutes really left of the 10-minute grace.
        #expect(last.message.body == "Check in now, or Bob Tester will be alerted in 9 minutes.")
        #expect(TwilioChannel.smsText(last.message).hasSuffix("\nReply OK to check in."))
        #expect(TwilioChannel.twiml(last.message, voice: nil, keypressURL: Self.keys).contains("Press 1 if you&apos;re OK."))

        // Answered by key (had it been a call), the last call checks her in.
        let spoken = try await world.replies.receiveKeypress(callID: "CA-last", digits: "1")
        #expect(spoken.hasPrefix("Thank you. You're checked in until "))
        #expect(try await world.checkIns.status(ada).state != .nonResponsive)
    }

    @Test func herPlansCallsAskForBackOrMoreTimeAndKeyThreeGivesOneHourOnce() async throws {
        let (world, ada, _) = try await scenario()
        let courier = Courier(world)
        try await reachAda(on: .voice, world, ada, courier)
        let plan = try await world.plans.start(
            ada, PlanRequest(title: "Rax trail", dueAt: world.clock.now.addingTimeInterval(3600), details: "Gaisloch"))
        _ = try await courier.deliver(.delivered(providerID: nil)) { $0.message.recipientID != ada.user.id }
        world.clock.advance(by: 3600 - 15 * 60)
        let engine = EscalationEngine(core: world.core, instance: "own-prompts")
        try await engine.runUntilIdle()
        let call = try #require(try await courier.deliver(.sent(providerID: "CA-plan")) { $0.message.kind == .planReminder }.first)
        let spoken = TwilioChannel.twiml(call.message, voice: nil, keypressURL: Self.keys)
        #expect(spoken.contains("Press 1 if you&apos;re back, or 3 for one more hour."))
        #expect(!spoken.contains("Gaisloch"))
        #expect(TwilioChannel.smsText(call.message).hasSuffix("Reply BACK when you're back, or LATER 1H for another hour."))

        #expect(
            try await world.replies.receiveKeypress(callID: "CA-plan", digits: "7") == "Press 1 if you're back, or 3 for one more hour.")
        let three = try await world.replies.receiveKeypress(callID: "CA-plan", digits: "3")
        #expect(three.hasPrefix("Rax trail now ends "))
        #expect(try await world.plans.list(ada).first?.dueAt == plan.dueAt.addingTimeInterval(3600))
        // Pressed again (or repeated by the provider): still one hour.
        _ = try await world.replies.receiveKeypress(callID: "CA-plan", digits: "3")
        #expect(try await world.plans.list(ada).first?.dueAt == plan.dueAt.addingTimeInterval(3600))
        // And 1 on this call no longer ends a plan it was not about.
        _ = try await world.replies.receiveKeypress(callID: "CA-plan", digits: "1")
        #expect(try await world.plans.list(ada).first?.state == .active)
    }

    @Test func theLastCallIsTrueForSomeoneWithNoResponders() async throws {
        let world = try await TestWorld()
        let cy = try await world.signUp("Cy", phone: "+447700900102")
        let engine = EscalationEngine(core: world.core, instance: "lonely")
        _ = try await world.checkIns.checkIn(cy, id: CheckInID(UUID()), clientAt: nil, source: .app)
        world.clock.advance(by: 24 * 3600 + 60)
        try await engine.runUntilIdle()
        let last = try #require(try await world.notifications(cy).first { $0.type == .nonResponsive })
        #expect(last.body == "Check in now. Nobody is set up to be alerted — add a responder so someone is told.")
        #expect(!last.body.contains("responders will"))
    }

    @Test func anSOSRaisedByTextIsEndedByTextWithAConfirmation() async throws {
        let (world, ada, bob) = try await scenario()
        _ = try await world.text(from: ada.user.phone, "SOS", id: "SM1")
        _ = try await world.text(from: ada.user.phone, "SOS", id: "SM2")
        let incident = try #require(try await world.checkIns.status(ada).openIncident)
        #expect(incident.kind == .manualAlert)

        let ask = "Text SAFE again within 5 minutes to end your emergency alert and tell Bob Tester you're safe."
        #expect(try await world.text(from: ada.user.phone, "safe", id: "SM3") == ask)
        // The same text delivered twice does not confirm itself.
        #expect(try await world.text(from: ada.user.phone, "safe", id: "SM3") == ask)
        #expect(try await world.checkIns.status(ada).openIncident?.id == incident.id)
        // Too late: the next SAFE asks again.
        world.clock.advance(by: 5 * 60 + 1)
        #expect(try await world.text(from: ada.user.phone, "SAFE", id: "SM4") == ask)
        #expect(try await world.checkIns.status(ada).openIncident?.id == incident.id)

        world.clock.advance(by: 60)
        let ended = try await world.text(from: ada.user.phone, "I'm safe", id: "SM5")
        #expect(ended.hasPrefix("Your emergency alert has ended. We're telling Bob Tester you're safe. You're checked in until "))
        #expect(try await world.checkIns.status(ada).openIncident == nil)
        #expect(try await world.notifications(bob).first?.type == .manualAlertCleared)
        #expect(try await world.timeline.timeline(ada).contains { $0.kind == "alert_ended_by_text" })
        // With no SOS open, SAFE is simply "I'm OK".
        world.clock.advance(by: 60)
        #expect(try await world.text(from: ada.user.phone, "SAFE", id: "SM6").hasPrefix("Thanks Ada, you're checked in until "))
    }

    @Test func okDuringHerSOSLeadsToSafe() async throws {
        let (world, ada, bob) = try await scenario()
        _ = try await world.incidents.raiseAlert(ada)
        let ok = try await world.text(from: ada.user.phone, "OK", id: "SM1")
        #expect(ok.hasPrefix("Thanks Ada, you're checked in until "))
        #expect(
            ok.hasSuffix(
                " Your emergency alert is still on and we keep alerting Bob Tester. If you're safe, text SAFE within 5 minutes to end it."))
        #expect(try await world.checkIns.status(ada).openIncident?.kind == .manualAlert)

        let ended = try await world.text(from: ada.user.phone, "SAFE", id: "SM2")
        #expect(ended.hasPrefix("Your emergency alert has ended."))
        #expect(try await world.checkIns.status(ada).openIncident == nil)
        #expect(try await world.notifications(bob).first?.type == .manualAlertCleared)
    }
}
