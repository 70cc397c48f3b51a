import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// No text a person reads holds an ISO timestamp or "UTC": every notification title and body
/// (which every channel's message is made of) and every timeline summary, through a day with
/// a reminder, a last call, an incident, "I'm on it", a lapsed claim, an all-clear, an SOS,
/// a ping, a drill and a settings change. Ada lives in Paris, Bob in New York.
@Suite("Readable times")
struct ReadableTimesTests {
    @Test func everyTextIsInWordsAndTheReadersZone() async throws {
        let world = try await TestWorld()
        var ada = try await world.signUp("Ada", phone: "+447700900800")
        var bob = try await world.signUp("Bob", phone: "+447700900801")
        ada.user = try await world.profiles.updateProfile(
            ada,
            ProfileChanges(schedule: .interval(seconds: 8 * 3600), reminders: .thirtyMinutes, graceMinutes: 10, timeZone: "Europe/Paris"))
        bob.user = try await world.profiles.updateProfile(bob, ProfileChanges(timeZone: "America/New_York"))
        try await world.link(responder: bob, dependent: ada)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        let engine = EscalationEngine(core: world.core, instance: "readable")

        // Reminder, last call, incident.
        world.clock.advance(by: 8 * 3600 - 1800)
        _ = try await engine.runPass()
        world.clock.advance(by: 1800)
        _ = try await engine.runPass()
        world.clock.advance(by: 600)
        _ = try await engine.runPass()
        let opened = try #require(
            try await world.notifications(bob).first { $0.type == .incidentOpened && $0.subjectUserID == ada.user.id })
        // 08:00Z + 8 h = 16:00Z: 17:00 in Paris, 11:00 in New York.
        #expect(opened.body.contains("today at 17:00 their time (11:00 yours)"), "\(opened.body)")
        // "I'm on it", then the claim lapses.
        _ = try await world.incidents.acknowledge(bob, incident: try #require(opened.incidentID))
        world.clock.advance(by: 3601)
        _ = try await engine.runPass()
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        // SOS and its all-clear, a ping, a drill, a settings change, a pause.
        _ = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.clearAlert(ada)
        _ = try await world.pings.ping(bob, dependent: ada.user.id)
        _ = try await world.drills.runDrill(ada)
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: .daily(hour: 9, minute: 30, timeZone: "Europe/Paris")))
        _ = try await world.profiles.setPause(ada, until: world.clock.now.addingTimeInterval(3 * 86400))

        var texts: [String] = []
        for caller in [ada, bob] {
            texts += try await world.notifications(caller).flatMap { [$0.title, $0.body] }
            texts += try await world.timeline.timeline(caller, after: 0).map(\.summary)
        }
        #expect(texts.count > 20)
        let onIt = try await world.notifications(ada).first { $0.type == .incidentAcknowledged && $0.title.hasSuffix("is on it") }
        #expect(onIt?.body.hasSuffix("today at 17:10.") == true, "\(onIt?.body ?? "none")")
        let iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/
        for text in texts {
            #expect(text.firstMatch(of: iso) == nil, "an ISO time: \(text)")
            #expect(!text.contains("UTC"), "UTC: \(text)")
        }
    }
}
