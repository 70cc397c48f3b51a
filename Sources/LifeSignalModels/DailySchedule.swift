import Foundation

/// "Check in by 09:30 and by 21:30 every day; by 11:00 on Sundays": one to four times of day,
/// each on the weekdays she chose, on her wall clock in one IANA time zone.
public struct DailySchedule: Hashable, Sendable {
    /// One time of day and the days it applies to.
    public struct Time: Hashable, Sendable {
        public var hour: Int
        public var minute: Int
        /// ISO numbered (1 Monday … 7 Sunday); every day by default.
        public var weekdays: Set<Int>

        public init(hour: Int, minute: Int, weekdays: Set<Int> = DailyCall.everyDay) {
            self.hour = hour
            self.minute = minute
            self.weekdays = weekdays
        }

        /// `HH:MM`.
        public var time: String { String(format: "%02d:%02d", hour, minute) }
        /// Minutes after midnight.
        public var minuteOfDay: Int { hour * 60 + minute }
        public var isEveryDay: Bool { weekdays == DailyCall.everyDay }
    }

    /// The times, earliest first.
    public var times: [Time]
    /// IANA time zone name.
    public var timeZone: String

    /// At most this many times a day.
    public static let maximumTimes = 4
    /// Two deadlines are at least this far apart on the wall clock: a grace of up to an hour
    /// alerts her responders before the next deadline falls, and a 30-minute reminder fits.
    public static let minimumGapMinutes = 60

    /// Keeps the times earliest first, so two schedules with the same times are equal.
    public init(times: [Time], timeZone: String) {
        self.times = times.sorted { a, b in
            a.minuteOfDay != b.minuteOfDay
                ? a.minuteOfDay < b.minuteOfDay : a.weekdays.sorted().lexicographicallyPrecedes(b.weekdays.sorted())
        }
        self.timeZone = timeZone
    }

    /// One time, every day.
    public init(hour: Int, minute: Int, timeZone: String) {
        self.init(times: [Time(hour: hour, minute: minute)], timeZone: timeZone)
    }

    /// The first time of day (what older clients read as the schedule's `time`).
    public var first: Time { times.first ?? Time(hour: 9, minute: 0) }

    /// The shortest wall-clock gap, in minutes, between one deadline and the next over a week
    /// (the last of Sunday and the first of Monday included); nil without any deadline.
    public var shortestGapMinutes: Int? {
        let week = 7 * 1440
        let marks = Set(times.flatMap { time in time.weekdays.map { ($0 - 1) * 1440 + time.minuteOfDay } }).sorted()
        guard let first = marks.first, let last = marks.last else { return nil }
        var gaps = zip(marks, marks.dropFirst()).map { $1 - $0 }
        gaps.append(first + week - last)
        return gaps.min()
    }
}
