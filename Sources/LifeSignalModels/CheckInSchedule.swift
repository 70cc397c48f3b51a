import Foundation

/// How often a person must check in.
public enum CheckInSchedule: Hashable, Sendable {
    /// Every `seconds` after the last check-in (1 hour to 7 days).
    case interval(seconds: Int)
    /// "Check in by HH:MM every day" in an IANA time zone.
    case daily(hour: Int, minute: Int, timeZone: String)
    /// "Call me every day at 09:00": the call is the check-in (see ``DailyCall``).
    case dailyCall(DailyCall)

    /// The default rhythm: every 24 hours.
    public static let `default` = CheckInSchedule.interval(seconds: 24 * 3600)

    /// The interval presets the apps offer, in seconds.
    public static let intervalPresets: [Int] =
        [8, 16, 24, 32, 48, 72].map { $0 * 3600 } + (4...7).map { $0 * 86400 }

    /// The nominal length of one period, used to check reminder lengths.
    public var nominalSeconds: Int {
        switch self {
        case let .interval(seconds): seconds
        case .daily, .dailyCall: 86400
        }
    }

    /// The daily call, when this rhythm is one.
    public var dailyCall: DailyCall? {
        if case let .dailyCall(call) = self { return call }
        return nil
    }
}

extension CheckInSchedule: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, seconds, time, timeZone, attempts, retryMinutes, weekdays, number
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "interval":
            self = .interval(seconds: try c.decode(Int.self, forKey: .seconds))
        case "daily":
            let (hour, minute) = try Self.time(in: c)
            self = .daily(hour: hour, minute: minute, timeZone: try c.decode(String.self, forKey: .timeZone))
        case "daily_call":
            let (hour, minute) = try Self.time(in: c)
            let names = try c.decodeIfPresent([String].self, forKey: .weekdays)
            if let names, Set(names.map { $0.lowercased() }).count != names.count {
                throw DecodingError.dataCorruptedError(forKey: .weekdays, in: c, debugDescription: "A weekday is named twice")
            }
            let weekdays = try names.map { names in
                try Set(
                    names.map { name in
                        guard let index = DailyCall.weekdayNames.firstIndex(of: name.lowercased()) else {
                            throw DecodingError.dataCorruptedError(
                                forKey: .weekdays, in: c, debugDescription: "Unknown weekday \(name)")
                        }
                        return index + 1
                    })
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
        case let .daily(hour, minute, timeZone):
            try c.encode("daily", forKey: .kind)
            try c.encode(String(format: "%02d:%02d", hour, minute), forKey: .time)
            try c.encode(timeZone, forKey: .timeZone)
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
        let time = try c.decode(String.self, forKey: .time)
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, time.count == 5 else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: c, debugDescription: "Expected HH:MM, got \(time)")
        }
        return (parts[0], parts[1])
    }
}
