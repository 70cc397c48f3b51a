import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// "I only watch over others": no rhythm, no reminders, never overdue, nobody alerted; a
/// check-in is still recorded, an SOS still works, and turning it off starts the rhythm from then.
@Suite("Watch-only accounts")
struct WatchOnlyTests {
    @Test func aWatcherIsNeverOverdueAndCanStartCheckingInAtAnyTime() async throws {
        let world = try await TestWorld()
        var bob = try await world.signUp("Bob", phone: "+447700900900")
        let cy = try await world.signUp("Cy", phone: "+447700900901")
        try await world.link(responder: cy, dependent: bob)
        bob.user = try await world.profiles.updateProfile(bob, ProfileChanges(watchOnly: true))
        #expect(bob.user.watchOnly)
        #expect(try await world.checkIns.status(bob).state == .watching)
        #expect(try await world.contacts.contacts(cy).dependents.first?.status?.state == .watching)

        // A week passes: no reminder, no last call, no incident, nobody alerted.
        let engine = EscalationEngine(core: world.core, instance: "watch")
        world.clock.advance(by: 7 * 86400)
        _ = try await engine.runPass()
        #expect(try await world.checkIns.status(bob).state == .watching)
        #expect(try await world.notifications(bob).allSatisfy { $0.type.category == .contacts })
        // (Cy has a rhythm of his own: only what is about Bob counts.)
        #expect(try await world.notifications(cy).filter { $0.subjectUserID == bob.user.id }.allSatisfy { $0.type.category == .contacts })

        // A check-in is recorded; an SOS still alerts.
        _ = try await world.checkIns.checkIn(bob, id: CheckInID(UUID()), clientAt: nil, source: .app)
        #expect(try await world.checkIns.status(bob).lastCheckInAt == world.clock.now)
        _ = try await world.incidents.raiseAlert(bob)
        #expect(try await world.checkIns.status(bob).state == .alert)
        #expect(try await world.notifications(cy).contains { $0.type == .manualAlert })
        _ = try await world.incidents.clearAlert(bob)

        // Turning it off starts a whole period from now: not overdue at once.
        world.clock.advance(by: 3 * 86400)
        bob.user = try await world.profiles.updateProfile(bob, ProfileChanges(schedule: .interval(seconds: 86400), watchOnly: false))
        let status = try await world.checkIns.status(bob)
        #expect(status.state == .ok)
        #expect(status.deadline == world.clock.now.addingTimeInterval(86400))
        world.clock.advance(by: 86400 + 11 * 60)
        _ = try await engine.runPass()
        #expect(try await world.notifications(cy).contains { $0.type == .incidentOpened && $0.subjectUserID == bob.user.id })
    }
}
