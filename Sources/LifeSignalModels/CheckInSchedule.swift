import Foundation

/// How often a person must check in.
public enum CheckInSchedule: Hashable, Sendable {
    /// Every `seconds` after the last check-in (1 hour to 7 days).
    case interval(seconds: Int)
    /// "Check in by HH:MM every day" in an IANA time zone.
    case daily(hour: Int, minute: Int, timeZone: String)

    /// The default rhythm: every 24 hours.
    public static let `default` = CheckInSchedule.interval(seconds: 24 * 3600)

    /// The interval presets the apps offer, in seconds.
    public static let intervalPresets: [Int] =
        [8, 16, 24, 32, 48, 72].map { $0 * 3600 } + (4...7).map { $0 * 86400 }

    /// The nominal length of one period, used to check reminder lengths.
    public var nominalSeconds: Int {
        switch self {
        case let .interval(seconds): seconds
        case .daily: 86400
        }
    }
}

extension CheckInSchedule: Codable {
    private enum CodingKeys: String, CodingKey { case kind, seconds, time, timeZone }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "interval":
            self = .interval(seconds: try c.decode(Int.self, forKey: .seconds))
        case "daily":
            let time = try c.decode(String.self, forKey: .time)
            let parts = time.split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2, time.count == 5 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .time, in: c, debugDescription: "Expected HH:MM, got \(time)")
            }
            self = .daily(
                hour: parts[0], minute: parts[1],
                timeZone: try c.decode(String.self, forKey: .timeZone))
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
        }
    }
}
