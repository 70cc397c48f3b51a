import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A daily schedule of two times with weekday masks in the engine, on both databases, across
/// both daylight-saving changes of 2026 in Vienna (29 March, 25 October): 09:30 Monday to
/// Saturday, 21:30 Monday to Friday, Sunday a rest day.
@Suite("Daily schedule with several times")
struct DailyTimesTests {
    typealias Backend = TestBackend
    static func at(_ text: String) -> Date { ISODate.parse(text)! }

    static let schedule = CheckInSchedule.daily(
        DailySchedule(
            times: [
                DailySchedule.Time(hour: 21, minute: 30, weekdays: Set(1...5)),
                DailySchedule.Time(hour: 9, minute: 30, weekdays: Set(1...6)),
            ], timeZone: "Europe/Vienna"))

    @Test(arguments: Backend.all)
    func twoTimesOnTheirDaysAcrossSpringForward(_ backend: Backend) async throws {
        let (world, drop) = try await TestWorld.on(backend)
        defer { Task { await drop() } }
        var ada = try await world.signUp("Ada", phone: "+436601234500")
        let bob = try await world.signUp("Bob", phone: "+436601234501")
        try await world.link(responder: bob, dependent: ada)
        ada.user = try await world.profiles.updateProfile(
            ada, ProfileChanges(schedule: Self.schedule, reminders: .thirtyMinutes, graceMinutes: 10))
        #expect(try await world.profiles.profile(ada).schedule == Self.schedule, "stored and read back whole")
        let engine = EscalationEngine(core: world.core, instance: "daily-times")
        func checkIn(_ time: String) async throws -> Date {
            world.clock.set(Self.at(time))
            _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            return try await world.checkIns.status(ada).deadline
        }
        func told(_ type: LifeSignalModels.Notification.Kind, _ person: Caller, about: Caller) async throws -> Int {
            try await world.notifications(person).filter { $0.type == type && $0.subjectUserID == about.user.id }.count
        }

        // Friday 27 March, 08:00 in Vienna (CET, UTC+1): covers 09:30; 21:30 is next.
        #expect(try await checkIn("2026-03-27T07:00:00Z") == Self.at("2026-03-27T20:30:00Z"))
        // 10:00 does not excuse 21:30: its window opens at 15:30.
        #expect(try await checkIn("2026-03-27T09:00:00Z") == Self.at("2026-03-27T20:30:00Z"))
        // 16:00 is inside 21:30's window: Saturday 09:30 (no 21:30 on Saturdays) is next.
        #expect(try await checkIn("2026-03-27T15:00:00Z") == Self.at("2026-03-28T08:30:00Z"))
        // Saturday 09:00 covers 09:30; Sunday is a rest day and the clocks go forward that night:
        // Monday 09:30 is summer time, 07:30Z.
        #expect(try await checkIn("2026-03-28T08:00:00Z") == Self.at("2026-03-30T07:30:00Z"))

        // Sunday: no deadline, so no reminder and no alert all day.
        let remindersBefore = try await told(.reminder, ada, about: ada)
        for time in ["2026-03-28T21:00:00Z", "2026-03-29T07:00:00Z", "2026-03-29T09:00:00Z", "2026-03-29T19:00:00Z"] {
            world.clock.set(Self.at(time))
            _ = try await engine.runPass()
        }
        #expect(try await told(.reminder, ada, about: ada) == remindersBefore)
        #expect(try await told(.incidentOpened, bob, about: ada) == 0)

        // Monday 09:00 summer time: the 30-minute reminder; 09:41 without a check-in: Bob is told.
        world.clock.set(Self.at("2026-03-30T07:00:00Z"))
        _ = try await engine.runPass()
        #expect(try await told(.reminder, ada, about: ada) == remindersBefore + 1)
        world.clock.set(Self.at("2026-03-30T07:41:00Z"))
        _ = try await engine.runPass()
        #expect(try await told(.incidentOpened, bob, about: ada) == 1)
        // Her late check-in at 09:45 ends it; it is outside 21:30's window, so 21:30 stays due.
        #expect(try await checkIn("2026-03-30T07:45:00Z") == Self.at("2026-03-30T19:30:00Z"))
        #expect(try await world.checkIns.status(ada).state == .ok)
    }

    @Test(arguments: Backend.all)
    func twoTimesOnTheirDaysAcrossFallBack(_ backend: Backend) async throws {
        let (world, drop) = try await TestWorld.on(backend)
        defer { Task { await drop() } }
        var ada = try await world.signUp("Ada", phone: "+436601234502")
        ada.user = try await world.profiles.updateProfile(
            ada, ProfileChanges(schedule: Self.schedule, reminders: .thirtyMinutes, graceMinutes: 10))
        func checkIn(_ time: String) async throws -> Date {
            world.clock.set(Self.at(time))
            _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            return try await world.checkIns.status(ada).deadline
        }
        // Friday 23 October 21:00 summer time (UTC+2) covers 21:30; Saturday 09:30 is next.
        #expect(try await checkIn("2026-10-23T19:00:00Z") == Self.at("2026-10-24T07:30:00Z"))
        // Saturday 09:00 covers it; after the rest day and the clocks going back, Monday 09:30
        // is winter time, 08:30Z.
        #expect(try await checkIn("2026-10-24T07:00:00Z") == Self.at("2026-10-26T08:30:00Z"))
        // Monday 00:30 is inside Monday 09:30's window (it opens at midnight).
        #expect(try await checkIn("2026-10-25T23:30:00Z") == Self.at("2026-10-26T20:30:00Z"))
    }

    @Test(arguments: Backend.all)
    func badTimesAreRefusedAndNothingChanges(_ backend: Backend) async throws {
        let (world, drop) = try await TestWorld.on(backend)
        defer { Task { await drop() } }
        var ada = try await world.signUp("Ada", phone: "+436601234503")
        ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: Self.schedule, reminders: .thirtyMinutes))
        let before = try await world.profiles.profile(ada)
        let deadline = try await world.checkIns.status(ada).deadline
        func time(_ hour: Int, _ minute: Int, _ days: Set<Int> = Set(1...7)) -> DailySchedule.Time {
            DailySchedule.Time(hour: hour, minute: minute, weekdays: days)
        }
        let bad: [(CheckInSchedule, ReminderChoice, String)] = [
            (.daily(DailySchedule(times: [], timeZone: "Europe/Vienna")), .none, "validation.dailyTimes.count"),
            (
                .daily(DailySchedule(times: [time(6, 0), time(9, 0), time(12, 0), time(15, 0), time(18, 0)], timeZone: "Europe/Vienna")),
                .none, "validation.dailyTimes.count"
            ),
            (
                .daily(DailySchedule(times: [time(9, 0), time(21, 0, [])], timeZone: "Europe/Vienna")), .none,
                "validation.dailyTimes.weekdays"
            ),
            (
                .daily(DailySchedule(times: [time(9, 0, [1]), time(9, 0, [2])], timeZone: "Europe/Vienna")), .none,
                "validation.dailyTimes.distinct"
            ),
            (.daily(DailySchedule(times: [time(9, 0), time(9, 45)], timeZone: "Europe/Vienna")), .none, "validation.dailyTimes.gap"),
            // 23:30 and 00:15 are 45 minutes apart across midnight.
            (.daily(DailySchedule(times: [time(0, 15), time(23, 30)], timeZone: "Europe/Vienna")), .none, "validation.dailyTimes.gap"),
            (.daily(DailySchedule(times: [time(9, 0), time(10, 30)], timeZone: "Europe/Vienna")), .twoHours, "validation.reminder"),
            (.daily(DailySchedule(times: [time(9, 0), time(25, 0)], timeZone: "Europe/Vienna")), .none, "validation.dailyTime"),
        ]
        for (schedule, reminders, key) in bad {
            await #expect {
                _ = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: schedule, reminders: reminders))
            } throws: { error in
                let refusal = error as? ServiceError
                return refusal?.words?.key == key
                    && refusal?.code == (key == "validation.reminder" ? .invalidReminders : .invalidSchedule)
            }
        }
        #expect(try await world.profiles.profile(ada) == before)
        #expect(try await world.checkIns.status(ada).deadline == deadline)
        // The same days on two times an hour apart on different days are fine: 09:00 on
        // Mondays and 09:30 on Tuesdays are a day apart.
        _ = try await world.profiles.updateProfile(
            ada, ProfileChanges(schedule: .daily(DailySchedule(times: [time(9, 0, [1]), time(9, 30, [2])], timeZone: "UTC"))))
    }
}
