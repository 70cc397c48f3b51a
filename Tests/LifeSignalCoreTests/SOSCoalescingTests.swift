import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Raising an SOS is never refused, and raise/clear loops do not flood anybody: within a
/// window after its owner cleared it, a raise reopens the same incident and each responder is
/// told "needs help again" at most once per window, and the all-clear only when they were
/// told something new since the last one.
@Suite("SOS coalescing")
struct SOSCoalescingTests {
    func scenario() async throws -> (TestWorld, Caller, Caller) {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900500")
        let bob = try await world.signUp("Bob", phone: "+447700900501")
        try await world.link(responder: bob, dependent: ada)
        // Start the loop at the beginning of a 10-minute window.
        let window = 600.0
        let start = (world.clock.now.timeIntervalSince1970 / window).rounded(.up) * window
        world.clock.advance(by: start - world.clock.now.timeIntervalSince1970 + 1)
        return (world, ada, bob)
    }

    func sos(_ world: TestWorld, _ bob: Caller) async throws -> (alerts: [Notification], clears: [Notification]) {
        let all = try await world.notifications(bob)
        return (all.filter { $0.type == .manualAlert }, all.filter { $0.type == .manualAlertCleared })
    }

    @Test func twentyRaiseClearCyclesAreOneIncidentAndTwoRoundsEach() async throws {
        let (world, ada, bob) = try await scenario()
        let first = try await world.incidents.raiseAlert(ada)
        for _ in 0..<20 {
            world.clock.advance(by: 5)
            _ = try await world.incidents.clearAlert(ada)
            world.clock.advance(by: 5)
            // Never refused, and always the same incident.
            #expect(try await world.incidents.raiseAlert(ada).id == first.id)
        }
        #expect(try await world.checkIns.status(ada).state == .alert)
        let (alerts, clears) = try await sos(world, bob)
        #expect(alerts.map(\.title).sorted() == ["🆘 Ada Tester needs help", "🆘 Ada Tester needs help again"])
        // Told safe after the first round and after the "again" round; not after quiet reopens.
        #expect(clears.count == 2)
        let report = try await world.incidents.incidentReport(bob, id: first.id)
        #expect(report.incident.isOpen)
        let timeline = try await world.timeline.timeline(ada, after: 0)
        #expect(timeline.filter { $0.kind == "incident_opened" }.count == 1)
        #expect(timeline.filter { $0.kind == "incident_reopened" }.count == 20)
    }

    @Test func aQuietReopenIsRepeatedWhenTheWindowTurns() async throws {
        let (world, ada, bob) = try await scenario()
        let first = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.clearAlert(ada)
        _ = try await world.incidents.raiseAlert(ada)  // "again": told
        _ = try await world.incidents.clearAlert(ada)
        _ = try await world.incidents.raiseAlert(ada)  // quiet: Bob heard "again" in this window
        #expect(try await sos(world, bob).alerts.count == 2)
        let reopened = try #require(try await world.incidents.incidentReport(ada, id: first.id).incident.nextNotifyAt)
        #expect(reopened <= world.clock.now.addingTimeInterval(600))

        // When the window turns, the engine repeats it to Bob.
        world.clock.advance(by: reopened.timeIntervalSince(world.clock.now) + 1)
        _ = try await EscalationEngine(core: world.core, instance: "test").runPass()
        let alerts = try await sos(world, bob).alerts
        #expect(alerts.count == 3)
        #expect(alerts.contains { $0.title.hasPrefix("🆘 Ada Tester needs help (reminder") })
    }

    @Test func aResponderAddedMeanwhileIsToldAtOnce() async throws {
        let (world, ada, bob) = try await scenario()
        _ = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.clearAlert(ada)
        _ = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.clearAlert(ada)
        let cy = try await world.signUp("Cy", phone: "+447700900502")
        try await world.link(responder: cy, dependent: ada)
        _ = try await world.incidents.raiseAlert(ada)
        #expect(try await sos(world, bob).alerts.count == 2)
        #expect(try await sos(world, cy).alerts.map(\.title) == ["🆘 Ada Tester needs help again"])
    }

    @Test func afterTheWindowARaiseIsANewIncident() async throws {
        let (world, ada, bob) = try await scenario()
        let first = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.clearAlert(ada)
        world.clock.advance(by: 601)
        let second = try await world.incidents.raiseAlert(ada)
        #expect(second.id != first.id)
        #expect(try await sos(world, bob).alerts.count == 2)
        #expect(try await world.incidents.incidentReport(ada, id: first.id).incident.resolution == .cleared)
    }

    @Test func anAlertAResponderResolvedIsNotReopened() async throws {
        let (world, ada, bob) = try await scenario()
        let first = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.acknowledge(bob, incident: first.id)
        _ = try await world.incidents.resolveIncident(bob, incident: first.id)
        let second = try await world.incidents.raiseAlert(ada)
        #expect(second.id != first.id)
    }
}

/// A ping answered "I need help" raises an alert to that responder and the others.
@Suite("Ping answered: I need help")
struct PingHelpTests {
    @Test func answeringAPingWithHelpAlertsEveryResponder() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900510")
        let bob = try await world.signUp("Bob", phone: "+447700900511")
        let cy = try await world.signUp("Cy", phone: "+447700900512")
        let eve = try await world.signUp("Eve", phone: "+447700900513")
        try await world.link(responder: bob, dependent: ada)
        try await world.link(responder: cy, dependent: ada)
        let ping = try await world.pings.ping(bob, dependent: ada.user.id)

        // A stranger cannot answer it; nothing is raised.
        await #expect(throws: ServiceError.self) { try await world.pings.answerPingWithHelp(eve, id: ping.id) }
        #expect(try await world.checkIns.status(ada).openIncident == nil)

        let incident = try await world.pings.answerPingWithHelp(ada, id: ping.id)
        #expect(incident.kind == .manualAlert)
        #expect(try await world.checkIns.status(ada).state == .alert)
        let bobs = try await world.notifications(bob)
        #expect(bobs.contains { $0.type == .pingAnswered && $0.title == "Ada Tester needs help" })
        #expect(bobs.contains { $0.type == .manualAlert && $0.incidentID == incident.id })
        #expect(try await world.notifications(cy).contains { $0.type == .manualAlert && $0.incidentID == incident.id })
        // The ping is answered (not a check-in), and asking again is still never refused.
        await #expect(throws: ServiceError.self) { try await world.pings.answerPings(ada, id: ping.id, checkInID: CheckInID(UUID())) }
        #expect(try await world.pings.answerPingWithHelp(ada, id: ping.id).id == incident.id)
    }
}
