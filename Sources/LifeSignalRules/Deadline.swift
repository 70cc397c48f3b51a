import Foundation
import LifeSignalModels

/// When a person's current period ends.
public enum Deadline {
    /// The deadline for a person, from their schedule and the start of their period.
    ///
    /// The period starts at the last check-in (or account creation). A pause acts like a
    /// check-in at its end: when it runs out the person gets a whole period, instead of
    /// waking up already overdue; a deadline inside a pause never falls.
    ///
    /// Time she added before it came ("give me 2 more hours", ``AddedTime``) moves that one
    /// deadline; once her rhythm gives another (she checked in), it no longer applies.
    public static func of(_ user: User) -> Date {
        let rhythm = ofRhythm(user)
        if let added = user.addedTime, added.from == rhythm { return added.until }
        return rhythm
    }

    /// The deadline her rhythm gives, before any time she added.
    public static func ofRhythm(_ user: User) -> Date {
        period(of: user).deadline
    }

    /// Where her current period starts and the deadline her rhythm gives for it: from her last
    /// check-in (or account creation), moved past her pauses (``PauseRule/period(from:_:deadline:)``).
    public static func period(of user: User) -> (start: Date, deadline: Date) {
        PauseRule.period(from: user.lastCheckInAt ?? user.createdAt, user.pauses) { next(after: $0, schedule: user.schedule) }
    }

    /// The deadline that follows a check-in (or period start) at `start`.
    ///
    /// Rolling interval: `start + interval`. Daily schedule: a check-in counts for a deadline
    /// only inside that deadline's window (``window(of:_:calendar:)``); it covers that deadline,
    /// and the next one is the schedule's next (later that day, or on a following day). A check-in outside every window — late, after today's
    /// deadline, or the evening before — covers nothing: the next deadline is simply the next
    /// one, so a late check-in at 09:31 leaves tomorrow's 09:30 due (never a 48-hour gap), and
    /// an evening check-in does not excuse the morning. Computed in the person's time zone, so
    /// the deadline stays at the same wall-clock time across DST.
    public static func next(after start: Date, schedule: CheckInSchedule) -> Date {
        switch schedule {
        case let .interval(seconds):
            return start.addingTimeInterval(TimeInterval(seconds))
        case let .daily(daily):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: daily.timeZone) ?? .gmt
            guard let upcoming = deadline(onOrAfter: start, daily, calendar: calendar) else {
                return start.addingTimeInterval(86400)
            }
            guard start >= window(of: upcoming, daily, calendar: calendar) else { return upcoming }
            return deadline(onOrAfter: upcoming.addingTimeInterval(1), daily, calendar: calendar) ?? upcoming.addingTimeInterval(86400)
        case let .dailyCall(call):
            // The deadline follows the day's first call by the tries and the time to answer the
            // last; a check-in counts for a call's deadline from the call's window on (so the
            // web's "I'm OK" at 08:00, or key 1 at 09:31, covers today's calls).
            let offset = TimeInterval(call.deadlineOffsetMinutes * 60)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: call.timeZone) ?? .gmt
            let first = firstCall(onOrAfter: start.addingTimeInterval(1 - offset), call, calendar: calendar)
            guard start >= window(of: first, calendar: calendar) else { return first.addingTimeInterval(offset) }
            return firstCall(onOrAfter: first.addingTimeInterval(1), call, calendar: calendar).addingTimeInterval(offset)
        }
    }

    /// When the day's first call rings for the deadline `deadline` of a daily call.
    public static func firstCall(before deadline: Date, _ call: DailyCall) -> Date {
        deadline.addingTimeInterval(-TimeInterval(call.deadlineOffsetMinutes * 60))
    }

    /// The first call at or after `date` on one of the call's weekdays.
    static func firstCall(onOrAfter date: Date, _ call: DailyCall, calendar: Calendar) -> Date {
        var at = occurrence(onOrAfter: date, hour: call.hour, minute: call.minute, calendar: calendar)
        // At most a week ahead: an empty set of days is refused when the rhythm is saved.
        for _ in 0..<7 where !call.weekdays.contains(isoWeekday(of: at, calendar: calendar)) {
            at = occurrence(onOrAfter: at.addingTimeInterval(1), hour: call.hour, minute: call.minute, calendar: calendar)
        }
        return at
    }

    /// 1 for Monday … 7 for Sunday, on `calendar`'s wall clock.
    public static func isoWeekday(of date: Date, calendar: Calendar) -> Int {
        (calendar.component(.weekday, from: date) + 5) % 7 + 1
    }

    /// How long before a daily deadline a check-in counts for it at most: the window opens at
    /// local midnight of the deadline's day, or this long before the deadline when that is
    /// earlier (so a 00:30 deadline can be met the evening before).
    public static let minimumWindow: TimeInterval = 6 * 3600

    /// When check-ins start counting for `deadline`: local midnight of its day, or
    /// ``minimumWindow`` before it, whichever is earlier.
    public static func window(of deadline: Date, calendar: Calendar) -> Date {
        min(calendar.startOfDay(for: deadline), deadline.addingTimeInterval(-minimumWindow))
    }

    /// When check-ins start counting for one deadline of a daily schedule. The day's first
    /// deadline: local midnight, or ``minimumWindow`` before it when that is earlier. A later
    /// deadline of the same day: ``minimumWindow`` before it. Never before the deadline ahead
    /// of it, so a check-in counts for one deadline at most: with 09:30 and 21:30, a check-in
    /// at 10:00 (late for the morning) does not excuse the evening, one at 16:00 does.
    public static func window(of deadline: Date, _ daily: DailySchedule, calendar: Calendar) -> Date {
        let previous = self.deadline(before: deadline, daily, calendar: calendar)
        let firstOfDay = previous.map { !calendar.isDate($0, inSameDayAs: deadline) } ?? true
        let own = firstOfDay ? window(of: deadline, calendar: calendar) : deadline.addingTimeInterval(-minimumWindow)
        return max(own, previous ?? own)
    }

    /// The deadlines of a daily schedule on the local day of `date`, earliest first; none on a
    /// day no time was chosen for.
    public static func deadlines(onDayOf date: Date, _ daily: DailySchedule, calendar: Calendar) -> [Date] {
        let midnight = calendar.startOfDay(for: date)
        let weekday = isoWeekday(of: midnight, calendar: calendar)
        return daily.times.filter { $0.weekdays.contains(weekday) }
            .map { occurrence(onOrAfter: midnight, hour: $0.hour, minute: $0.minute, calendar: calendar) }
            .filter { calendar.isDate($0, inSameDayAs: midnight) }
            .sorted()
    }

    /// The first deadline of a daily schedule at or after `date` (nil only when no time has a day).
    public static func deadline(onOrAfter date: Date, _ daily: DailySchedule, calendar: Calendar) -> Date? {
        var day = date
        for _ in 0...7 {
            if let found = deadlines(onDayOf: day, daily, calendar: calendar).first(where: { $0 >= date }) { return found }
            guard let next = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: day)) else { return nil }
            day = next
        }
        return nil
    }

    /// The deadline of a daily schedule just before `date`, looking back a week at most.
    static func deadline(before date: Date, _ daily: DailySchedule, calendar: Calendar) -> Date? {
        var day = date
        for _ in 0...7 {
            if let found = deadlines(onDayOf: day, daily, calendar: calendar).last(where: { $0 < date }) { return found }
            guard let previous = calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: day)) else { return nil }
            day = previous
        }
        return nil
    }

    /// The first wall-clock `hour:minute` at or after `date`; a time skipped by a DST change
    /// moves to the next valid instant (02:30 on a spring-forward day becomes 03:00).
    static func occurrence(onOrAfter date: Date, hour: Int, minute: Int, calendar: Calendar) -> Date {
        let components = DateComponents(hour: hour, minute: minute, second: 0)
        let atSameTime = calendar.date(bySettingHour: hour, minute: minute, second: 0, of: date)
        if let atSameTime, atSameTime == date { return date }
        return calendar.nextDate(
            after: date, matching: components, matchingPolicy: .nextTime, repeatedTimePolicy: .first,
            direction: .forward) ?? date.addingTimeInterval(86400)
    }
}
