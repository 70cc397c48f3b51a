import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalTestSupport
import Synchronization
import Testing

/// The messages outside the alert path — drills, pauses, proof codes, a changed number, sign-in
/// codes, what a call says after a key press — are written for whoever reads or hears them.
@Suite struct RecipientLanguageNoticeTests {
    typealias Courier = HelpIsComingTests.Courier

    /// Ada (English) has Bob (German) and Cy (French) watching over her: her drill and her
    /// pause reach each in their own words; her timeline keeps the English record.
    @Test func drillsAndPausesInTheRespondersLanguage() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900501")
        let bob = try await world.signUp("Bob", phone: "+447700900502")
        let cy = try await world.signUp("Cy", phone: "+447700900503")
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(timeZone: "Europe/London", language: "en"))
        _ = try await world.profiles.updateProfile(bob, ProfileChanges(timeZone: "Europe/Berlin", watchOnly: true, language: "de-AT"))
        _ = try await world.profiles.updateProfile(cy, ProfileChanges(timeZone: "Europe/London", watchOnly: true, language: "fr"))
        try await world.link(responder: bob, dependent: ada)
        try await world.link(responder: cy, dependent: ada)

        _ = try await world.drills.runDrill(ada)
        let bobsDrill = try #require(try await world.notifications(bob).first { $0.type == .drill })
        #expect(bobsDrill.title == "Übung: Ada Tester testet LifeSignal")
        #expect(bobsDrill.body == "Dies ist nur ein Test, wie Sie wegen Ada Tester benachrichtigt würden. Sie müssen nichts tun.")
        let cysDrill = try #require(try await world.notifications(cy).first { $0.type == .drill })
        #expect(cysDrill.title == "Exercice : Ada Tester teste LifeSignal")
        let record = try await world.timeline.timeline(ada).map(\.summary)
        #expect(record.contains("Drill: Ada Tester is testing LifeSignal → Bob Tester"), "\(record)")

        _ = try await world.profiles.setPause(ada, until: world.clock.now.addingTimeInterval(2 * 24 * 3600))
        let bobsPause = try #require(try await world.notifications(bob).first { $0.type == .pauseChanged })
        #expect(bobsPause.title == "Ada Tester hat das Melden pausiert")
        // Her clock is London's, his Berlin's: both, in German.
        #expect(bobsPause.body.hasPrefix("Ada Tester hat das Melden bis "), "\(bobsPause.body)")
        #expect(bobsPause.body.contains(" Ortszeit ("), "\(bobsPause.body)")
        #expect(bobsPause.body.hasSuffix("wenn Ada Tester sich nicht meldet."), "\(bobsPause.body)")
        let cysPause = try #require(try await world.notifications(cy).first { $0.type == .pauseChanged })
        #expect(cysPause.title == "Ada Tester a mis ses nouvelles en pause")

        _ = try await world.profiles.setPause(ada, until: nil)
        let bobsResume = try #require(try await world.notifications(bob).first { $0.title == "Ada Tester meldet sich wieder" })
        #expect(bobsResume.body == "Ada Tester meldet sich wieder. Sie werden benachrichtigt, wenn Ada Tester sich nicht meldet.")
        #expect(try await world.notifications(cy).contains { $0.title == "Ada Tester donne de nouveau de ses nouvelles" })
    }

    /// "If I miss my next check-in" is said to whoever asks, in their language.
    @Test func thePreviewInTheCallersLanguage() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900551")
        let bob = try await world.signUp("Bob", phone: "+447700900552")
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(language: "de"))
        try await world.link(responder: bob, dependent: ada)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web)
        let steps = try await world.drills.timelinePreview(try await world.refresh(ada))
        #expect(steps.first?.summary == "Erinnerung an Sie: Melden Sie sich innerhalb von 30 Minuten")
        #expect(steps.contains { $0.summary == "Letzte Erinnerung an Sie: Vertrauenspersonen werden in 10 Minuten benachrichtigt" })
        #expect(steps.contains { $0.summary == "Alarm an Bob Tester per Protokoll" }, "\(steps.map(\.summary))")
        #expect(steps.contains { $0.summary == "Erinnerung 2 an Bob Tester per Protokoll, außer jemand sagt „Ich kümmere mich“" })
    }

    /// A proof code travels in its owner's language; a changed number is told in it too.
    @Test func proofCodesAndANumberChangeInTheOwnersLanguage() async throws {
        let world = try await TestWorld()
        let courier = Courier(world)
        let ada = try await world.signUp("Ada", phone: "+447700900511")
        let eva = try await world.signUp("Eva", phone: "+447700900512")
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(language: "de"))
        _ = try await world.profiles.updateProfile(eva, ProfileChanges(language: "es"))
        let adas = try await world.channels.addChannel(ada, ChannelRegistration(kind: .sms, address: "+447700900561"))
        let evas = try await world.channels.addChannel(eva, ChannelRegistration(kind: .sms, address: "+447700900562"))
        let sent = try await courier.deliver(.delivered(providerID: nil))
        let adaCode = try #require(world.channelCode(for: adas.address))
        let evaCode = try #require(world.channelCode(for: evas.address))
        let toAda = try #require(sent.first { $0.message.address == adas.address }).message
        #expect(toAda.title == "Ihr LifeSignal-Code: \(adaCode)")
        #expect(toAda.body.hasPrefix("Geben Sie \(adaCode) in LifeSignal ein"))
        #expect(toAda.language == "de")
        let toEva = try #require(sent.first { $0.message.address == evas.address }).message
        #expect(toEva.title == "Su código de LifeSignal: \(evaCode)")

        let refreshed = try await world.refresh(ada)
        _ = try await world.accounts.requestPhoneChange(refreshed, phone: "+447700900599", clientAddress: "test")
        let code = try #require(world.code(for: "+447700900599"))
        _ = try await world.accounts.confirmPhoneChange(refreshed, phone: "+447700900599", code: code)
        let told = try #require(try await world.notifications(ada).first { $0.type == .roleChanged })
        #expect(told.title == "Ihre Nummer bei LifeSignal wurde geändert")
        #expect(told.body.hasPrefix("Ihr LifeSignal-Konto nutzt jetzt die Nummer mit der Endung 0599."))
    }

    /// A sign-in code is in the language of the account that signs in with the number, else
    /// the one asked for, else English; a new number's code follows its owner's language.
    @Test func signInCodesTakeTheReadersLanguage() async throws {
        let asked = Mutex<[String: Language]>([:])
        let world = try await TestWorld(dependencies: { dependencies in
            let codes = dependencies.codeSender!
            dependencies.codeSender = SignInCodeSender(canCall: false) { phone, code, channel, language in
                asked.withLock { $0[phone] = language }
                try await codes.send(phone, code, channel, language)
            }
        })
        let ada = try await world.signUp("Ada", phone: "+447700900521")
        #expect(asked.withLock { $0["+447700900521"] } == .english)
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(language: "fr"))
        world.clock.advance(by: 120)
        _ = try await world.accounts.requestSignInCode(phone: "+447700900521", clientAddress: "t2", language: Language("de"))
        #expect(asked.withLock { $0["+447700900521"] } == Language("fr"), "her own language, not the browser's")
        _ = try await world.accounts.requestSignInCode(phone: "+447700900522", clientAddress: "t3", language: Language("es"))
        #expect(asked.withLock { $0["+447700900522"] } == Language("es"))
        let refreshed = try await world.refresh(ada)
        _ = try await world.accounts.requestPhoneChange(refreshed, phone: "+447700900523", clientAddress: "t4")
        #expect(asked.withLock { $0["+447700900523"] } == Language("fr"))
    }

    /// What a call says after a key press is in the called person's language: a German
    /// reminder call, a Spanish responder's alert call.
    @Test func keypressRepliesInTheCalledPersonsLanguage() async throws {
        let world = try await TestWorld()
        let courier = Courier(world)
        var ada = try await world.signUp("Ada", phone: "+33612345001")
        let cy = try await world.signUp("Cy", phone: "+447700900532")
        ada.user = try await world.profiles.updateProfile(
            ada, ProfileChanges(schedule: .interval(seconds: 8 * 3600), timeZone: "Europe/Paris", language: "de"))
        _ = try await world.profiles.updateProfile(cy, ProfileChanges(watchOnly: true, language: "es"))
        try await world.link(responder: cy, dependent: ada)
        try await world.addProvedChannel(ada, ChannelRegistration(kind: .voice, address: ada.user.phone, categories: [.system, .alerts]))
        try await world.addProvedChannel(cy, ChannelRegistration(kind: .voice, address: cy.user.phone))
        _ = try await courier.deliver(.delivered(providerID: nil))
        let engine = EscalationEngine(core: world.core, instance: "calls")
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        world.clock.advance(by: 8 * 3600 - 30 * 60)
        #expect(try await engine.runPass().reminders == 1)
        _ = try await courier.deliver(.sent(providerID: "CA-de")) { $0.message.kind == .reminder && $0.message.channel == .voice }
        world.clock.advance(by: 60)
        let other = try await world.replies.keypressReply(callID: "CA-de", digits: "2")
        #expect(other.text == "Die 1 wurde nicht gedrückt. Auf Wiederhören.")
        #expect(other.language == Language("de"))
        let one = try await world.replies.keypressReply(callID: "CA-de", digits: "1")
        // 15:31 UTC plus eight hours is 00:31 in Paris.
        #expect(one.text == "Danke. Sie sind gemeldet bis morgen um 00:31. Auf Wiederhören.")

        _ = try await world.incidents.raiseAlert(ada)
        _ = try await courier.deliver(.sent(providerID: "CA-es")) { $0.message.recipientID == cy.user.id && $0.message.channel == .voice }
        let onIt = try await world.replies.keypressReply(callID: "CA-es", digits: "1")
        #expect(onIt.text == "Gracias. Estamos avisando a Ada Tester y a los demás de que usted se encarga. Adiós.")
        #expect(onIt.language == Language("es"))
        let unknown = try await world.replies.keypressReply(callID: "CA-nobody", digits: "1")
        #expect(unknown.text == "Sorry, this call has ended. Goodbye." && unknown.language == .english)
    }
}
