import Foundation

/// How often a person must check in.
public enum CheckInSchedule: Hashable, Sendable {
    /// Every `seconds` after the last check-in (1 hour to 7 days).
    case interval(seconds: Int)
    /// "Check in by 09:30 and by 21:30": 1–4 times a day, each on chosen weekdays, in an IANA
    /// time zone (see ``DailySchedule``).
    case daily(DailySchedule)
    /// "Call me every day at 09:00": the call is the check-in (see ``DailyCall``).
    case dailyCall(DailyCall)

    /// The default rhythm: every 24 hours.
    public static let `default` = CheckInSchedule.interval(seconds: 24 * 3600)

    /// The interval presets the apps offer, in seconds.
    public static let intervalPresets: [Int] =
        [8, 16, 24, 32, 48, 72].map { $0 * 3600 } + (4...7).map { $0 * 86400 }

    /// "Check in by HH:MM every day": one time, every day.
    public static func daily(hour: Int, minute: Int, timeZone: String) -> CheckInSchedule {
        .daily(DailySchedule(hour: hour, minute: minute, timeZone: timeZone))
    }

    /// The nominal length of one period, used to check reminder lengths: for a daily schedule
    /// the shortest time between two of its deadlines.
    public var nominalSeconds: Int {
        switch self {
        case let .interval(seconds): seconds
        case let .daily(daily): (daily.shortestGapMinutes ?? 1440) * 60
        case .dailyCall: 86400
        }
    }

    /// The daily schedule, when this rhythm is one.
    public var dailySchedule: DailySchedule? {
        if case let .daily(daily) = self { return daily }
        return nil
    }

    /// The daily call, when this rhythm is one.
    public var dailyCall: DailyCall? {
        if case let .dailyCall(call) = self { return call }
        return nil
    }
}

extension CheckInSchedule: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, seconds, time, times, timeZone, attempts, retryMinutes, weekdays, number
    }

    private enum TimeKeys: String, CodingKey {
        case time, weekdays
    }

    /// One entry of `times`: `"09:30"`, or `{"time": "09:30", "weekdays": ["mon", …]}`.
    private struct TimeEntry: Decodable {
        var time: DailySchedule.Time

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                let (hour, minute) = try CheckInSchedule.parse(text, codingPath: decoder.codingPath)
                time = DailySchedule.Time(hour: hour, minute: minute)
                return
            }
            let c = try decoder.container(keyedBy: TimeKeys.self)
            let (hour, minute) = try CheckInSchedule.parse(
                try c.decode(String.self, forKey: .time), codingPath: c.codingPath + [TimeKeys.time])
            let names = try c.decodeIfPresent([String].self, forKey: .weekdays)
            time = DailySchedule.Time(
                hour: hour, minute: minute,
                weekdays: try names.map { try CheckInSchedule.weekdays($0, codingPath: c.codingPath + [TimeKeys.weekdays]) }
                    ?? DailyCall.everyDay)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "interval":
            self = .interval(seconds: try c.decode(Int.self, forKey: .seconds))
        case "daily":
            // `times` (each a string or an object with weekdays); older clients send one `time`.
            let timeZone = try c.decode(String.self, forKey: .timeZone)
            if c.contains(.times) {
                // An answer sent back carries `time` as well: it must still read as a time.
                if c.contains(.time) { _ = try Self.time(in: c) }
                let times = try c.decode([TimeEntry].self, forKey: .times).map(\.time)
                self = .daily(DailySchedule(times: times, timeZone: timeZone))
            } else {
                let (hour, minute) = try Self.time(in: c)
                self = .daily(hour: hour, minute: minute, timeZone: timeZone)
            }
        case "daily_call":
            let (hour, minute) = try Self.time(in: c)
            let weekdays = try c.decodeIfPresent([String].self, forKey: .weekdays).map {
                try Self.weekdays($0, codingPath: c.codingPath + [CodingKeys.weekdays])
            }
            self = .dailyCall(
                DailyCall(
                    hour: hour, minute: minute, timeZone: try c.decode(String.self, forKey: .timeZone),
                    attempts: try c.decodeIfPresent(Int.self, forKey: .attempts) ?? DailyCall.defaultAttempts,
                    retryMinutes: try c.decodeIfPresent(Int.self, forKey: .retryMinutes) ?? DailyCall.defaultRetryMinutes,
                    weekdays: weekdays ?? DailyCall.everyDay,
                    number: try c.decodeIfPresent(String.self, forKey: .number)))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c, debugDescription: "Unknown schedule kind \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .interval(seconds):
            try c.encode("interval", forKey: .kind)
            try c.encode(seconds, forKey: .seconds)
        case let .daily(daily):
            try c.encode("daily", forKey: .kind)
            var times = c.nestedUnkeyedContainer(forKey: .times)
            for time in daily.times {
                var entry = times.nestedContainer(keyedBy: TimeKeys.self)
                try entry.encode(time.time, forKey: .time)
                try entry.encode(time.weekdays.sorted().map { DailyCall.weekdayNames[$0 - 1] }, forKey: .weekdays)
            }
            // The first time, for clients that know one daily time only.
            try c.encode(daily.first.time, forKey: .time)
            try c.encode(daily.timeZone, forKey: .timeZone)
        case let .dailyCall(call):
            try c.encode("daily_call", forKey: .kind)
            try c.encode(call.time, forKey: .time)
            try c.encode(call.timeZone, forKey: .timeZone)
            try c.encode(call.attempts, forKey: .attempts)
            try c.encode(call.retryMinutes, forKey: .retryMinutes)
            try c.encode(call.weekdays.sorted().map { DailyCall.weekdayNames[$0 - 1] }, forKey: .weekdays)
            try c.encodeIfPresent(call.number, forKey: .number)
        }
    }

    private static func time(in c: KeyedDecodingContainer<CodingKeys>) throws -> (hour: Int, minute: Int) {
        try parse(try c.decode(String.self, forKey: .time), codingPath: c.codingPath + [CodingKeys.time])
    }

    fileprivate static func parse(_ time: String, codingPath: [any CodingKey]) throws -> (hour: Int, minute: Int) {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, time.count == 5 else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Expected HH:MM, got \(time)"))
        }
        return (parts[0], parts[1])
    }

    /// ISO weekday numbers from the API's names (`mon` … `sun`); a name twice or unknown is refused.
    fileprivate static func weekdays(_ names: [String], codingPath: [any CodingKey]) throws -> Set<Int> {
        if Set(names.map { $0.lowercased() }).count != names.count {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "A weekday is named twice"))
        }
        return try Set(
            names.map { name in
                guard let index = DailyCall.weekdayNames.firstIndex(of: name.lowercased()) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Unknown weekday \(name)"))
                }
                return index + 1
            })
    }
}
