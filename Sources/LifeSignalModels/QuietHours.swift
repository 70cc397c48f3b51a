import Foundation

/// Quiet hours ("22:00 to 07:00" on her wall clock, in her own zone): only her own early
/// reminders wait for their end, or are left out when that would be too late; the last call at
/// the deadline and every alert ignore them. Off unless she sets them.
public struct QuietHours: Hashable, Sendable {
    /// Minutes after midnight when they start and end; they may cross midnight.
    public var fromMinute: Int
    public var toMinute: Int

    public init(fromMinute: Int, toMinute: Int) {
        self.fromMinute = fromMinute
        self.toMinute = toMinute
    }

    /// `HH:MM` of the start and of the end.
    public var from: String { String(format: "%02d:%02d", fromMinute / 60, fromMinute % 60) }
    public var to: String { String(format: "%02d:%02d", toMinute / 60, toMinute % 60) }

    /// `HH:MM` to minutes after midnight; nil for anything else.
    public static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard text.count == 5, parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else { return nil }
        return parts[0] * 60 + parts[1]
    }
}

extension QuietHours: Codable {
    private enum CodingKeys: String, CodingKey { case from, to }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let from = try c.decode(String.self, forKey: .from)
        let to = try c.decode(String.self, forKey: .to)
        guard let fromMinute = Self.minute(from) else {
            throw DecodingError.dataCorruptedError(forKey: .from, in: c, debugDescription: "Expected HH:MM, got \(from)")
        }
        guard let toMinute = Self.minute(to) else {
            throw DecodingError.dataCorruptedError(forKey: .to, in: c, debugDescription: "Expected HH:MM, got \(to)")
        }
        self.init(fromMinute: fromMinute, toMinute: toMinute)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
    }
}
