import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Two ways the truth slipped: a pause that told no responder and left an alert repeating,
/// and a reminder or last call sent late (no engine ran at its time) that read as if on time.
@Suite struct PauseAndLateTests {
    @Test func pausingTellsRespondersAndEndsAnOpenMissedCheckIn() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900401")
        let bob = try await world.signUp("Bob", phone: "+447700900402")
        try await world.link(responder: bob, dependent: ada)
        world.clock.advance(by: 24 * 3600 + 11 * 60)
        _ = try await EscalationEngine(core: world.core, instance: "pause").runPass()
        #expect(try await world.checkIns.status(ada).openIncident?.kind == .missedCheckIn)

        // Pausing does not answer the alert by itself: she must say what becomes of it.
        let until = world.clock.now.addingTimeInterval(3 * 86400)
        let unanswered = await #expect(throws: ServiceError.self) { try await world.profiles.setPause(ada, until: until) }
        #expect(unanswered?.code == .incidentOpen)
        #expect(try await world.checkIns.status(ada).state == .nonResponsive)
        let status = try await world.profiles.setPause(ada, until: until, openIncident: .resolve)
        #expect(status.state == .paused)
        #expect(status.openIncident == nil)
        let told = try await world.notifications(bob)
        #expect(told.contains { $0.type == .pauseChanged && $0.title == "Ada Tester paused check-ins" })
        #expect(told.contains { $0.type == .incidentResolved && $0.title == "Ada Tester is safe" })
        // Nothing repeats while she is paused.
        world.clock.advance(by: 3600)
        _ = try await EscalationEngine(core: world.core, instance: "pause").runPass()
        #expect(try await world.notifications(bob).filter { $0.type == .incidentOpened }.count == 1)

        _ = try await world.profiles.setPause(ada, until: nil)
        #expect(try await world.notifications(bob).contains { $0.type == .pauseChanged && $0.title == "Ada Tester is checking in again" })
    }

    @Test func anSOSIsNeverSilencedByAPause() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900403")
        _ = try await world.incidents.raiseAlert(ada)
        await #expect(throws: ServiceError.self) {
            _ = try await world.profiles.setPause(ada, until: world.clock.now.addingTimeInterval(86400))
        }
        #expect(try await world.checkIns.status(ada).state == .alert)
    }

    @Test func aReminderAndALastCallSentLateSayHowLateAndTheTimeReallyLeft() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900404")
        let bob = try await world.signUp("Bob", phone: "+447700900405")
        try await world.link(responder: bob, dependent: ada)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web)
        // No engine ran from 30 minutes before her deadline until 5 minutes after it: both
        // steps are taken at once; the reminder is pointless then, the last call is late.
        world.clock.advance(by: 24 * 3600 + 5 * 60)
        _ = try await EscalationEngine(core: world.core, instance: "late").runPass()
        let mine = try await world.notifications(ada)
        #expect(!mine.contains { $0.type == .reminder })
        let last = try #require(mine.first { $0.type == .nonResponsive })
        #expect(last.title == "You missed your check-in (sent late)")
        #expect(last.body.hasPrefix("This was due today at 08:00; our service could not send it then. "), "\(last.body)")
        #expect(last.body.hasSuffix("Bob Tester will be alerted in 5 minutes."), "\(last.body)")

        // A reminder taken late, before the deadline: late, with the minutes really left.
        let cy = try await world.signUp("Cy", phone: "+447700900406")
        _ = try await world.checkIns.checkIn(cy, id: CheckInID(UUID()), clientAt: nil, source: .web)
        world.clock.advance(by: 24 * 3600 - 10 * 60)
        _ = try await EscalationEngine(core: world.core, instance: "late").runPass()
        let reminder = try #require(try await world.notifications(cy).first { $0.type == .reminder })
        #expect(reminder.title == "Time to check in (sent late)")
        #expect(reminder.body.contains("Check in within 10 minutes"), "\(reminder.body)")
    }
}
