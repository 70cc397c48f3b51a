import Foundation
import LifeSignalModels
import LifeSignalRules
import Testing

/// The daily call's deadline, plan and night guard, in the person's zone.
@Suite("Daily call rules")
struct DailyCallRuleTests {
    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    let call = DailyCall(hour: 9, minute: 0, timeZone: "Europe/Berlin")

    @Test func theDeadlineFollowsTheTriesAndTheTimeToAnswerTheLast() {
        // Tuesday 2026-12-01, Berlin is UTC+1: the first call at 08:00 UTC, the deadline 08:40.
        let evening = Self.at("2026-11-30T19:00:00Z")
        #expect(Deadline.next(after: evening, schedule: .dailyCall(call)) == Self.at("2026-12-01T08:40:00Z"))
        let plan = EscalationPlan.steps(deadline: Self.at("2026-12-01T08:40:00Z"), call: call, periodStart: evening)
        #expect(plan.map(\.at) == ["08:00", "08:15", "08:30", "08:40"].map { Self.at("2026-12-01T\($0):00Z") })
        #expect(plan.map(\.kind) == [.call(attempt: 1), .call(attempt: 2), .call(attempt: 3), .openIncident])
        // Two tries ten minutes apart: 09:00 + 10 + 10 = 09:20.
        var short = call
        (short.attempts, short.retryMinutes) = (2, 10)
        #expect(Deadline.next(after: evening, schedule: .dailyCall(short)) == Self.at("2026-12-01T08:20:00Z"))
    }

    @Test func aKeyAtNineThirtyOneCoversTodayAndTheWebBeforeTheCallToo() {
        let schedule = CheckInSchedule.dailyCall(call)
        let tomorrow = Self.at("2026-12-02T08:40:00Z")
        #expect(Deadline.next(after: Self.at("2026-12-01T08:31:00Z"), schedule: schedule) == tomorrow)
        #expect(Deadline.next(after: Self.at("2026-12-01T07:00:00Z"), schedule: schedule) == tomorrow)
        // After the deadline a check-in covers nothing already gone: tomorrow's is next.
        #expect(Deadline.next(after: Self.at("2026-12-01T08:41:00Z"), schedule: schedule) == tomorrow)
    }

    @Test func onlyTheChosenWeekdaysAreCalled() {
        var weekdays = call
        weekdays.weekdays = [1, 3, 5]  // Monday, Wednesday, Friday
        // Monday 2026-11-30 after the call: the next is Wednesday's.
        #expect(
            Deadline.next(after: Self.at("2026-11-30T12:00:00Z"), schedule: .dailyCall(weekdays))
                == Self.at("2026-12-02T08:40:00Z"))
        // Friday evening: Monday.
        #expect(
            Deadline.next(after: Self.at("2026-12-04T18:00:00Z"), schedule: .dailyCall(weekdays))
                == Self.at("2026-12-07T08:40:00Z"))
    }

    @Test func theCallKeepsItsWallClockTimeAcrossDaylightSaving() {
        // Berlin springs forward on Sunday 2027-03-28: 09:00 is 08:00 UTC before, 07:00 UTC after.
        let schedule = CheckInSchedule.dailyCall(call)
        #expect(Deadline.next(after: Self.at("2027-03-27T12:00:00Z"), schedule: schedule) == Self.at("2027-03-28T07:40:00Z"))
        #expect(Deadline.next(after: Self.at("2027-03-26T12:00:00Z"), schedule: schedule) == Self.at("2027-03-27T08:40:00Z"))
    }

    @Test func noCallRingsAtNightUnlessSheChoseANightTime() {
        // 22:30 in Berlin (a zone mix-up would ring then): held back.
        #expect(DailyCallRule.isNightCall(now: Self.at("2026-12-01T21:30:00Z"), call))
        #expect(DailyCallRule.isNightCall(now: Self.at("2026-12-01T05:59:00Z"), call))
        #expect(!DailyCallRule.isNightCall(now: Self.at("2026-12-01T06:00:00Z"), call))
        // She works nights and chose 23:00: it rings.
        var night = call
        night.hour = 23
        #expect(!DailyCallRule.isNightCall(now: Self.at("2026-12-01T22:00:00Z"), night))
        // She chose 20:50: the tries at 21:05 and 21:20 are hers too; a zone mix-up ringing
        // her first try at 21:50 or 23:20 is held back.
        var evening = call
        (evening.hour, evening.minute) = (20, 50)
        #expect(!DailyCallRule.isNightCall(now: Self.at("2026-12-01T20:05:00Z"), evening, attempt: 2))
        #expect(!DailyCallRule.isNightCall(now: Self.at("2026-12-01T20:20:00Z"), evening, attempt: 3))
        #expect(DailyCallRule.isNightCall(now: Self.at("2026-12-01T20:50:00Z"), evening, attempt: 1))
        #expect(DailyCallRule.isNightCall(now: Self.at("2026-12-01T22:20:00Z"), evening, attempt: 1))
        // A try of a 10:00 call rung at 22:00 is held, whichever try it is.
        #expect(DailyCallRule.isNightCall(now: Self.at("2026-12-01T21:00:00Z"), call, attempt: 3))
    }

    @Test func theKeysAndTheOutcomes() {
        #expect(DailyCallRule.key("1") == .okay)
        #expect(DailyCallRule.key(" 2") == .okayCallMe)
        #expect(DailyCallRule.key("9") == .help)
        #expect(DailyCallRule.key("0") == .repeatMenu)
        #expect(DailyCallRule.key("") == .other)
        #expect(DailyCallRule.outcome(status: .delivered, reason: nil) == .answeredNoKey)
        #expect(DailyCallRule.outcome(status: .failed, reason: "The line was busy.") == .busy)
        #expect(DailyCallRule.outcome(status: .failed, reason: "Nobody answered the call.") == .noAnswer)
        #expect(DailyCallRule.outcome(status: .failed, reason: "The phone number is not valid.") == .notPlaced)
        #expect(DailyCallRule.outcome(status: .sent, reason: nil) == .unknown)
    }

    @Test func theScheduleReadsAndWritesTheAPIShape() throws {
        let json = #"{"kind":"daily_call","time":"09:00","timeZone":"Europe/Berlin","weekdays":["mon","fri"]}"#
        let schedule = try JSONDecoder().decode(CheckInSchedule.self, from: Data(json.utf8))
        #expect(schedule == .dailyCall(DailyCall(hour: 9, minute: 0, timeZone: "Europe/Berlin", weekdays: [1, 5])))
        let again = try JSONDecoder().decode(CheckInSchedule.self, from: try JSONEncoder().encode(schedule))
        #expect(again == schedule)
        #expect(throws: DecodingError.self) {
            let funday = #"{"kind":"daily_call","time":"09:00","timeZone":"UTC","weekdays":["funday"]}"#
            return try JSONDecoder().decode(CheckInSchedule.self, from: Data(funday.utf8))
        }
        var bad = call
        bad.attempts = 6
        #expect(throws: ValidationError.self) { try Validation.schedule(.dailyCall(bad), reminders: .default) }
        bad = call
        bad.weekdays = []
        #expect(throws: ValidationError.self) { try Validation.schedule(.dailyCall(bad), reminders: .default) }
    }
}
