import Foundation
import LifeSignalLanguage
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// Daily schedules of several times, each on its weekdays: deadlines and their windows, the
/// JSON shapes (old and new), validation, and the schedule in words.
@Suite("Daily times")
struct DailyTimesRuleTests {
    /// Vienna: 09:30 Monday to Saturday, 21:30 Monday to Friday, Sunday a rest day.
    static let vienna = DailySchedule(
        times: [
            DailySchedule.Time(hour: 9, minute: 30, weekdays: Set(1...6)),
            DailySchedule.Time(hour: 21, minute: 30, weekdays: Set(1...5)),
        ], timeZone: "Europe/Vienna")

    @Test(
        "the next deadline is the earliest unmet one; a check-in counts for one deadline at most",
        arguments: [
            // Friday 27 March 2026, 08:00 CET: covers 09:30, 21:30 is next.
            ("2026-03-27T07:00:00Z", "2026-03-27T20:30:00Z"),
            // 10:00, late for 09:30: 21:30's window opens at 15:30, so it stays due.
            ("2026-03-27T09:00:00Z", "2026-03-27T20:30:00Z"),
            // 15:29 still outside; 15:30 inside: Saturday 09:30 is next (no 21:30 on Saturdays).
            ("2026-03-27T14:29:00Z", "2026-03-27T20:30:00Z"),
            ("2026-03-27T14:30:00Z", "2026-03-28T08:30:00Z"),
            // Exactly at 21:30 counts for it.
            ("2026-03-27T20:30:00Z", "2026-03-28T08:30:00Z"),
            // Saturday 09:00: Sunday has nothing, the clocks go forward: Monday 09:30 CEST.
            ("2026-03-28T08:00:00Z", "2026-03-30T07:30:00Z"),
            // Sunday noon covers nothing (Monday's window opens at midnight).
            ("2026-03-29T10:00:00Z", "2026-03-30T07:30:00Z"),
            // Monday 00:30 CEST covers Monday 09:30.
            ("2026-03-29T22:30:00Z", "2026-03-30T19:30:00Z"),
            // Fall back, 25 October 2026: Saturday 09:00 CEST → Monday 09:30 CET.
            ("2026-10-24T07:00:00Z", "2026-10-26T08:30:00Z"),
        ])
    func deadlines(checkIn: String, expected: String) {
        #expect(Deadline.next(after: ISODate.parse(checkIn)!, schedule: .daily(Self.vienna)) == ISODate.parse(expected))
    }

    @Test func windowsNeverReachBackPastTheDeadlineAheadOfThem() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Vienna")!
        let close = DailySchedule(
            times: [DailySchedule.Time(hour: 9, minute: 0), DailySchedule.Time(hour: 11, minute: 0)], timeZone: "Europe/Vienna")
        // 11:00's own 6 hours would start at 05:00; 09:00 is ahead of it, so it starts there.
        #expect(
            Deadline.window(of: ISODate.parse("2026-01-12T10:00:00Z")!, close, calendar: calendar) == ISODate.parse("2026-01-12T08:00:00Z"))
        // The day's first deadline opens at midnight.
        #expect(
            Deadline.window(of: ISODate.parse("2026-01-12T08:00:00Z")!, close, calendar: calendar) == ISODate.parse("2026-01-11T23:00:00Z"))
    }

    @Test func oneTimeEveryDayIsUnchanged() {
        // The old single time: the same deadlines as before (see DeadlineTests.daily).
        let one = CheckInSchedule.daily(hour: 9, minute: 30, timeZone: "Europe/Paris")
        #expect(Deadline.next(after: ISODate.parse("2026-01-10T09:00:00Z")!, schedule: one) == ISODate.parse("2026-01-11T08:30:00Z"))
        #expect(Deadline.next(after: ISODate.parse("2026-01-09T21:00:00Z")!, schedule: one) == ISODate.parse("2026-01-10T08:30:00Z"))
    }

    @Test func theOldSingleTimeJSONStillDecodes() throws {
        let old = try JSONDecoder().decode(
            CheckInSchedule.self, from: Data(#"{"kind":"daily","time":"09:30","timeZone":"Europe/Vienna"}"#.utf8))
        #expect(old == .daily(hour: 9, minute: 30, timeZone: "Europe/Vienna"))
        let strings = try JSONDecoder().decode(
            CheckInSchedule.self, from: Data(#"{"kind":"daily","times":["21:30","09:30"],"timeZone":"UTC"}"#.utf8))
        #expect(strings.dailySchedule?.times.map(\.time) == ["09:30", "21:30"])
        #expect(strings.dailySchedule?.times.allSatisfy(\.isEveryDay) == true)
        let objects = try JSONDecoder().decode(
            CheckInSchedule.self,
            from: Data(
                #"{"kind":"daily","times":[{"time":"09:30","weekdays":["mon","tue","wed","thu","fri","sat"]},{"time":"21:30","weekdays":["mon","tue","wed","thu","fri"]}],"timeZone":"Europe/Vienna"}"#
                    .utf8))
        #expect(objects == .daily(Self.vienna))
        for bad in [
            #"{"kind":"daily","times":["9:30"],"timeZone":"UTC"}"#,
            #"{"kind":"daily","times":[{"time":"09:30","weekdays":["mon","mon"]}],"timeZone":"UTC"}"#,
            #"{"kind":"daily","times":[{"time":"09:30","weekdays":["monday"]}],"timeZone":"UTC"}"#, #"{"kind":"daily","timeZone":"UTC"}"#,
            #"{"kind":"daily","time":"","times":["09:30"],"timeZone":"UTC"}"#,
        ] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(CheckInSchedule.self, from: Data(bad.utf8)) }
        }
    }

    @Test func theAnswerHasTimesWithTheirDaysAndTheFirstTimeForOlderClients() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(CheckInSchedule.daily(Self.vienna)), as: UTF8.self)
        #expect(
            json
                == #"{"kind":"daily","time":"09:30","timeZone":"Europe\/Vienna","times":[{"time":"09:30","weekdays":["mon","tue","wed","thu","fri","sat"]},{"time":"21:30","weekdays":["mon","tue","wed","thu","fri"]}]}"#
        )
        #expect(try JSONDecoder().decode(CheckInSchedule.self, from: Data(json.utf8)) == .daily(Self.vienna))
    }

    @Test func validation() throws {
        func check(_ times: [(Int, Int, Set<Int>)], _ reminders: ReminderChoice = .none) -> String? {
            let daily = DailySchedule(times: times.map { DailySchedule.Time(hour: $0.0, minute: $0.1, weekdays: $0.2) }, timeZone: "UTC")
            do {
                try Validation.schedule(.daily(daily), reminders: reminders)
                return nil
            } catch { return error.key }
        }
        let all = Set(1...7)
        #expect(check([(9, 30, all), (21, 30, all)], .both) == nil)
        #expect(check([(9, 30, Set(1...5)), (21, 30, all), (11, 0, [7])], .both) == nil)
        #expect(check([]) == "validation.dailyTimes.count")
        #expect(check([(1, 0, all), (5, 0, all), (9, 0, all), (13, 0, all), (17, 0, all)]) == "validation.dailyTimes.count")
        #expect(check([(9, 30, all), (21, 30, [])]) == "validation.dailyTimes.weekdays")
        #expect(check([(9, 30, [1]), (9, 30, [2])]) == "validation.dailyTimes.distinct")
        #expect(check([(9, 0, all), (9, 59, all)]) == "validation.dailyTimes.gap")
        #expect(check([(9, 0, all), (10, 0, all)]) == nil)
        // Sunday 23:30 and Monday 00:15: 45 minutes apart across the week's end.
        #expect(check([(23, 30, [7]), (0, 15, [1])]) == "validation.dailyTimes.gap")
        // A reminder must be shorter than the shortest gap: 2 hours before 10:30 is before 09:00.
        #expect(check([(9, 0, all), (10, 30, all)], .twoHours) == "validation.reminder")
        #expect(check([(9, 0, all), (10, 30, all)], .thirtyMinutes) == nil)
    }

    @Test func theScheduleInWords() {
        let daily = DailySchedule(
            times: [
                DailySchedule.Time(hour: 9, minute: 30), DailySchedule.Time(hour: 21, minute: 30),
                DailySchedule.Time(hour: 11, minute: 0, weekdays: [7]),
            ], timeZone: "Europe/Vienna")
        #expect(DailyScheduleWords.text(daily, words: .english) == "by 09:30 and by 21:30 every day; by 11:00 on Sundays")
        #expect(DailyScheduleWords.text(Self.vienna, words: .english) == "by 09:30 from Monday to Saturday; by 21:30 on weekdays")
        #expect(DailyScheduleWords.text(daily, words: Words(Language("de")!)) == "jeden Tag bis 09:30 und bis 21:30; sonntags bis 11:00")
    }
}
