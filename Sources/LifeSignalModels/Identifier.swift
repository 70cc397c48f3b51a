import Foundation

/// A typed identifier: a `UserID` can never be passed where an `IncidentID` is expected.
/// Encodes as a plain lowercase UUID string.
public struct Identifier<Tag>: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    CustomStringConvertible
{
    public let rawValue: UUID

    public init(rawValue: UUID) { self.rawValue = rawValue }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// Parses a UUID string in any case; `nil` when it is not a UUID.
    public init?(string: String) {
        guard let uuid = UUIDText.parse(string) else { return nil }
        self.rawValue = uuid
    }

    public var description: String { UUIDText.lowercase(rawValue) }

    /// The order of the stored text (lowercase hex digits order as their bytes do), compared
    /// on the 16 bytes without making the text.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        withUnsafeBytes(of: lhs.rawValue.uuid) { left in
            withUnsafeBytes(of: rhs.rawValue.uuid) { right in left.lexicographicallyPrecedes(right) }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let uuid = UUIDText.parse(string) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Expected a UUID, got \(string)")
        }
        self.rawValue = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

public typealias UserID = Identifier<User>
public typealias CheckInID = Identifier<CheckIn>
public typealias IncidentID = Identifier<Incident>
public typealias PingID = Identifier<Ping>
public typealias NotificationID = Identifier<Notification>
public typealias DeliveryID = Identifier<Delivery>
public typealias SessionID = Identifier<Session>
public typealias ChannelID = Identifier<Channel>
public typealias DailyCallSetupID = Identifier<DailyCallSetup>

/// UUID text by hand: ids are parsed and printed for every bound and read row, and
/// Foundation's `UUID(uuidString:)` / `uuidString` go through `sscanf` / `sprintf` on Linux.
/// Same format: 36 characters, hex digits in either case, dashes after 8, 12, 16 and 20.
enum UUIDText {
    static func lowercase(_ uuid: UUID) -> String {
        let digits = HexDigits.lower
        return withUnsafeBytes(of: uuid.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for (i, byte) in bytes.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[o] = UInt8(ascii: "-")
                        o += 1
                    }
                    out[o] = digits[Int(byte >> 4)]
                    out[o + 1] = digits[Int(byte & 0x0f)]
                    o += 2
                }
                return o
            }
        }
    }

    /// The canonical form is parsed here; anything else goes to Foundation, which also takes a
    /// few lenient spellings (a leading space or sign in a group).
    static func parse(_ text: String) -> UUID? {
        fastParse(text) ?? UUID(uuidString: text)
    }

    private static func fastParse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { chars -> UUID? in
            guard chars.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let ok = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var c = 0
                for i in 0..<16 {
                    if c == 8 || c == 13 || c == 18 || c == 23 {
                        guard chars[c] == UInt8(ascii: "-") else { return false }
                        c += 1
                    }
                    guard let high = value(chars[c]), let low = value(chars[c + 1]) else { return false }
                    out[i] = high << 4 | low
                    c += 2
                }
                return true
            }
            return ok ? UUID(uuid: bytes) : nil
        }
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
