import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

@Suite("Deadline")
struct DeadlineTests {
    static let base = ISODate.parse("2026-03-01T12:00:00Z")!

    func user(schedule: CheckInSchedule, lastCheckIn: Date?, pausedUntil: Date? = nil) -> User {
        User(
            id: UserID(UUID()), phone: "+15555550100", schedule: schedule, lastCheckInAt: lastCheckIn,
            pauses: pausedUntil.map { [Pause.startingNow(lastCheckIn ?? Self.base, until: $0, setBy: UserID(UUID()), setByName: "")] }
                ?? [],
            createdAt: Self.base, contactCode: String(repeating: "a", count: 32))
    }

    @Test(
        "rolling interval: last check-in + interval, or creation + interval",
        arguments: [
            (8 * 3600, "2026-03-01T13:00:00Z", "2026-03-01T21:00:00Z"),
            (24 * 3600, "2026-03-01T13:00:00Z", "2026-03-02T13:00:00Z"),
            (7 * 86400, "2026-03-01T12:00:00Z", "2026-03-08T12:00:00Z"),
        ])
    func interval(seconds: Int, checkIn: String, expected: String) {
        let u = user(schedule: .interval(seconds: seconds), lastCheckIn: ISODate.parse(checkIn))
        #expect(Deadline.of(u) == ISODate.parse(expected))
    }

    @Test func neverCheckedInCountsFromCreation() {
        #expect(Deadline.of(user(schedule: .default, lastCheckIn: nil)) == ISODate.parse("2026-03-02T12:00:00Z"))
    }

    @Test(
        "daily deadline: a check-in counts only inside its deadline's window",
        arguments: [
            // 08:00 local (UTC+1 in winter) covers today 09:30; the deadline is tomorrow 09:30.
            ("2026-01-10T07:00:00Z", "Europe/Paris", "2026-01-11T08:30:00Z"),
            // 10:00 local is late for today's 09:30 and outside tomorrow's window (it opens at
            // midnight): it covers nothing, tomorrow's 09:30 is due. No 48-hour gap.
            ("2026-01-10T09:00:00Z", "Europe/Paris", "2026-01-11T08:30:00Z"),
            // 09:31, one minute late: the same.
            ("2026-01-10T08:31:00Z", "Europe/Paris", "2026-01-11T08:30:00Z"),
            // 22:00 the evening before does not excuse the morning: 09:30 the next day is due.
            ("2026-01-09T21:00:00Z", "Europe/Paris", "2026-01-10T08:30:00Z"),
            // 00:01 local opens the day's window: it covers 09:30.
            ("2026-01-09T23:01:00Z", "Europe/Paris", "2026-01-11T08:30:00Z"),
            // Exactly at the deadline counts for it.
            ("2026-01-10T08:30:00Z", "Europe/Paris", "2026-01-11T08:30:00Z"),
            // Across spring-forward (29 March 2026 in Paris): 09:30 is 07:30Z in summer time.
            ("2026-03-28T07:00:00Z", "Europe/Paris", "2026-03-29T07:30:00Z"),
            // Across fall-back in New York (1 November 2026): 09:30 EST is 14:30Z.
            ("2026-10-31T12:00:00Z", "America/New_York", "2026-11-01T14:30:00Z"),
        ])
    func daily(checkIn: String, zone: String, expected: String) {
        let u = user(schedule: .daily(hour: 9, minute: 30, timeZone: zone), lastCheckIn: ISODate.parse(checkIn))
        #expect(Deadline.of(u) == ISODate.parse(expected))
    }

    @Test(
        "an early deadline's window opens six hours before it, the evening before",
        arguments: [
            // Deadline 00:30 in London (winter, UTC): 20:00 the evening before is inside its window.
            ("2026-01-09T20:00:00Z", "2026-01-11T00:30:00Z"),
            // 18:00 is not: 00:30 the next night is due.
            ("2026-01-09T18:00:00Z", "2026-01-10T00:30:00Z"),
        ])
    func earlyDeadline(checkIn: String, expected: String) {
        let u = user(schedule: .daily(hour: 0, minute: 30, timeZone: "Europe/London"), lastCheckIn: ISODate.parse(checkIn))
        #expect(Deadline.of(u) == ISODate.parse(expected))
    }

    @Test func dailyDeadlineInsideSkippedHourMovesToTheNextValidTime() {
        // 02:30 does not exist in Paris on 29 March 2026; the deadline becomes 03:00 CEST (01:00Z).
        let u = user(schedule: .daily(hour: 2, minute: 30, timeZone: "Europe/Paris"), lastCheckIn: ISODate.parse("2026-03-28T00:00:00Z"))
        #expect(Deadline.of(u) == ISODate.parse("2026-03-29T01:00:00Z"))
    }

    @Test func aPauseActsLikeACheckInAtItsEnd() {
        let u = user(
            schedule: .interval(seconds: 86400), lastCheckIn: ISODate.parse("2026-03-01T12:00:00Z"),
            pausedUntil: ISODate.parse("2026-03-05T00:00:00Z"))
        #expect(Deadline.of(u) == ISODate.parse("2026-03-06T00:00:00Z"))
    }
}
