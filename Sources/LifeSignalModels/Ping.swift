import Foundation

/// A responder asking a dependent "are you OK?".
public struct Ping: Identifiable, Codable, Hashable, Sendable {
    public var id: PingID
    public var fromUserID: UserID
    public var toUserID: UserID
    public var sentAt: Date
    public var answeredAt: Date?
    public var clearedAt: Date?

    public var isPending: Bool { answeredAt == nil && clearedAt == nil }

    public init(
        id: PingID, fromUserID: UserID, toUserID: UserID, sentAt: Date, answeredAt: Date? = nil,
        clearedAt: Date? = nil
    ) {
        self.id = id
        self.fromUserID = fromUserID
        self.toUserID = toUserID
        self.sentAt = sentAt
        self.answeredAt = answeredAt
        self.clearedAt = clearedAt
    }
}
