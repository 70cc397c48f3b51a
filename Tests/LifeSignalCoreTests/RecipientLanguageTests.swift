import Foundation
@_spi(Testing) import LifeSignalCore
import LifeSignalDelivery
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Every message is written for the one who reads it: in their language and their zone, with
/// the other person's clock where it differs.
@Suite struct RecipientLanguageTests {
    /// Ada (English, London) misses a check-in; Bob (German, Berlin) watches over her and Cy
    /// (Spanish, Madrid) too. Each reads the same incident in their own words.
    @Test func aGermanResponderAndAnEnglishPersonEachReadTheirOwnLanguage() async throws {
        let world = try await TestWorld()
        let engine = EscalationEngine(core: world.core, instance: "languages")
        let ada = try await world.signUp("Ada", phone: "+447700900401")
        let bob = try await world.signUp("Bob", phone: "+447700900402")
        let cy = try await world.signUp("Cy", phone: "+447700900403")
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(timeZone: "Europe/London", language: "en"))
        _ = try await world.profiles.updateProfile(bob, ProfileChanges(timeZone: "Europe/Berlin", watchOnly: true, language: "de-AT"))
        _ = try await world.profiles.updateProfile(cy, ProfileChanges(timeZone: "Europe/London", watchOnly: true, language: "es"))
        try await world.link(responder: bob, dependent: ada)
        try await world.link(responder: cy, dependent: ada)

        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web)
        world.clock.advance(by: 24 * 3600 - 30 * 60)
        _ = try await engine.runPass()
        let reminder = try #require(try await world.notifications(ada).first { $0.type == .reminder })
        #expect(reminder.title == "Time to check in")
        #expect(reminder.body.hasPrefix("Check in within 30 minutes — your deadline is today at "))

        world.clock.advance(by: 30 * 60)
        _ = try await engine.runPass()
        let adas = try await world.notifications(ada)
        #expect(adas.contains { $0.title == "You missed your check-in" })
        world.clock.advance(by: 10 * 60)
        _ = try await engine.runPass()
        let bobs = try #require(try await world.notifications(bob).first { $0.type == .incidentOpened })
        #expect(bobs.title == "Ada Tester hat sich nicht gemeldet")
        // His clock is Berlin's, hers London's: both, in German.
        #expect(bobs.body.hasPrefix("Ada Tester sollte sich heute um "), "\(bobs.body)")
        #expect(bobs.body.contains(" Ortszeit (") && bobs.body.contains(" bei Ihnen) melden und hat es nicht getan."), "\(bobs.body)")
        let cys = try #require(try await world.notifications(cy).first { $0.type == .incidentOpened })
        #expect(cys.title == "Ada Tester no ha confirmado que está bien")
        // Cy shares her zone: one clock.
        #expect(cys.body.hasPrefix("Ada Tester debía confirmar que estaba bien hoy a las "), "\(cys.body)")
        #expect(!cys.body.contains("hora local"))

        // Bob takes it: Cy is told in Spanish; the timeline keeps English.
        let open = try #require(try await world.checkIns.status(ada).openIncident)
        _ = try await world.incidents.acknowledge(bob, incident: open.id)
        #expect(try await world.notifications(cy).contains { $0.title == "Bob Tester se está ocupando de la alerta de Ada Tester" })

        // She checks in: the all-clear in each language.
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web)
        let bobSafe = try #require(try await world.notifications(bob).first { $0.type == .incidentResolved })
        #expect(bobSafe.title == "Ada Tester ist in Sicherheit")
        #expect(bobSafe.body.hasPrefix("Ada Tester hat sich heute um "), "\(bobSafe.body)")
        let cySafe = try #require(try await world.notifications(cy).first { $0.type == .incidentResolved })
        #expect(cySafe.title == "Ada Tester está a salvo")
    }

    /// The outbox hands each delivery its recipient's language: a German text carries the
    /// German reply line, a call the German voice.
    @Test func deliveriesCarryTheRecipientsLanguage() async throws {
        let world = try await TestWorld(configuration: ServiceConfiguration(defaultChannel: .sms))
        let ada = try await world.signUp("Ada", phone: "+447700900411")
        let bob = try await world.signUp("Bob", phone: "+447700900412")
        _ = try await world.profiles.updateProfile(bob, ProfileChanges(watchOnly: true, language: "de"))
        try await world.link(responder: bob, dependent: ada)
        _ = try await world.pings.ping(bob, dependent: ada.user.id)
        _ = try await world.pings.answerPings(ada, id: nil, checkInID: CheckInID(UUID()))
        let answered = try #require(try await world.notifications(bob).first { $0.type == .pingAnswered })
        #expect(answered.title == "Ada Tester geht es gut")
        #expect(answered.body == "Ada Tester hat auf Ihre Nachfrage geantwortet.")
        let asked = try #require(try await world.notifications(ada).first { $0.type == .pingReceived })
        #expect(asked.title == "Bob Tester is checking on you")
    }

    /// A text command in her language is read, and the reply comes in it: JA checks a German
    /// speaker in, SOS twice alerts, SICHER twice ends it; a Spanish responder's VOY takes it.
    @Test func textCommandsAndRepliesInTheSendersLanguage() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900431")
        let cy = try await world.signUp("Cy", phone: "+447700900432")
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(language: "de"))
        _ = try await world.profiles.updateProfile(cy, ProfileChanges(watchOnly: true, language: "es"))
        try await world.link(responder: cy, dependent: ada)
        let ok = try #require(try await world.replies.receiveText(from: "+447700900431", body: "Ja!", messageID: "SMde1"))
        #expect(ok.hasPrefix("Danke Ada, Sie sind gemeldet bis "), "\(ok)")
        let first = try #require(try await world.replies.receiveText(from: "+447700900431", body: "SOS", messageID: "SMde2"))
        #expect(
            first
                == "Senden Sie innerhalb von 5 Minuten noch einmal SOS, um Cy Tester zu alarmieren. Wenn Sie in Gefahr sind, rufen Sie den Notruf an."
        )
        let second = try #require(try await world.replies.receiveText(from: "+447700900431", body: "sos", messageID: "SMde3"))
        #expect(second.hasPrefix("Ihr Notruf geht an Cy Tester."))
        let alert = try #require(try await world.notifications(cy).first { $0.type == .manualAlert })
        #expect(alert.title == "🆘 Ada Tester necesita ayuda")
        let voy = try #require(try await world.replies.receiveText(from: "+447700900432", body: "Voy", messageID: "SMes1"))
        #expect(voy.hasPrefix("Gracias. Estamos avisando a Ada Tester y a los demás de que usted se encarga."), "\(voy)")
        let safe = try #require(try await world.replies.receiveText(from: "+447700900431", body: "sicher", messageID: "SMde4"))
        #expect(
            safe
                == "Senden Sie innerhalb von 5 Minuten noch einmal SICHER, um Ihren Notruf zu beenden und Cy Tester zu sagen, dass Sie in Sicherheit sind."
        )
        let ended = try #require(try await world.replies.receiveText(from: "+447700900431", body: "In Sicherheit", messageID: "SMde5"))
        #expect(ended.hasPrefix("Ihr Notruf ist beendet. Wir sagen Cy Tester, dass Sie in Sicherheit sind."), "\(ended)")
        let cySafe = try #require(try await world.notifications(cy).first { $0.type == .manualAlertCleared })
        #expect(cySafe.title == "Ada Tester está a salvo")
    }

    /// A language is a well-formed BCP 47 tag, stored canonical; junk is refused and changes nothing.
    @Test func theLanguageIsValidated() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900421")
        #expect(try await world.profiles.updateProfile(ada, ProfileChanges(language: "DE_at")).language == "de-AT")
        await #expect(throws: ServiceError.self) {
            _ = try await world.profiles.updateProfile(ada, ProfileChanges(firstName: "Changed", language: "not a language"))
        }
        let after = try await world.profiles.updateProfile(ada, ProfileChanges())
        #expect(after.language == "de-AT")
        #expect(after.firstName == "Ada")
    }
}
