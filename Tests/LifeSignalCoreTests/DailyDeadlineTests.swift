import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// The engine on a daily deadline ("by 09:30 every day", Paris) across the spring-forward night
/// of 28 March 2027: the deadline stays at 09:30 on the wall clock, a missed one alerts, and a
/// late check-in leaves the next day's deadline due — never a 48-hour gap.
@Suite("Daily deadline in the engine")
struct DailyDeadlineTests {
    static func at(_ text: String) -> Date { ISODate.parse(text)! }

    @Test func aMissedDailyDeadlineAlertsAndALateCheckInLeavesTomorrowDue() async throws {
        let world = try await TestWorld()
        var ada = try await world.signUp("Ada", phone: "+447700900700")
        let bob = try await world.signUp("Bob", phone: "+447700900701")
        try await world.link(responder: bob, dependent: ada)
        ada.user = try await world.profiles.updateProfile(
            ada,
            ProfileChanges(
                schedule: .daily(hour: 9, minute: 30, timeZone: "Europe/Paris"), reminders: ReminderChoice.none, graceMinutes: 10))
        let engine = EscalationEngine(core: world.core, instance: "daily")
        func incidentsToBob() async throws -> Int {
            // Bob's own rhythm runs too (the clock jumps months): count only alerts about Ada.
            try await world.notifications(bob).filter { $0.type == .incidentOpened && $0.subjectUserID == ada.user.id }.count
        }

        // Saturday 08:00 in Paris (CET, UTC+1): covers Saturday 09:30. Sunday's 09:30 is
        // summer time (UTC+2): 07:30Z, an hour earlier in UTC than Saturday's 08:30Z.
        world.clock.set(Self.at("2027-03-27T07:00:00Z"))
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        #expect(try await world.checkIns.status(ada).deadline == Self.at("2027-03-28T07:30:00Z"))

        world.clock.set(Self.at("2027-03-28T07:39:00Z"))
        _ = try await engine.runPass()
        #expect(try await incidentsToBob() == 0, "inside the grace period")
        world.clock.set(Self.at("2027-03-28T07:41:00Z"))
        _ = try await engine.runPass()
        #expect(try await incidentsToBob() == 1)

        // She checks in late, at 09:45 summer time: the incident ends, Monday 09:30 is due.
        world.clock.set(Self.at("2027-03-28T07:45:00Z"))
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        let status = try await world.checkIns.status(ada)
        #expect(status.state == .ok)
        #expect(status.deadline == Self.at("2027-03-29T07:30:00Z"))

        // Monday she forgets: Bob is alerted again the same morning, not a day later.
        world.clock.set(Self.at("2027-03-29T07:41:00Z"))
        _ = try await engine.runPass()
        #expect(try await incidentsToBob() == 2)
    }

    @Test func anEveningCheckInDoesNotExcuseTheMorning() async throws {
        let world = try await TestWorld()
        var ada = try await world.signUp("Ada", phone: "+447700900702")
        ada.user = try await world.profiles.updateProfile(
            ada, ProfileChanges(schedule: .daily(hour: 9, minute: 30, timeZone: "Europe/Paris"), graceMinutes: 0))
        // Friday 22:00 in Paris: outside Saturday's window, which opens at midnight.
        world.clock.set(Self.at("2027-03-26T21:00:00Z"))
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        #expect(try await world.checkIns.status(ada).deadline == Self.at("2027-03-27T08:30:00Z"))
    }
}
