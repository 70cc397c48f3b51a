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
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.rawValue = uuid
    }

    public var description: String { rawValue.uuidString.lowercased() }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let uuid = UUID(uuidString: string) else {
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
