import Foundation

/// A page of the notification history.
public struct NotificationPage: Sendable, Hashable, Codable {
    public var items: [Notification]
    public var unreadCount: Int
    /// Pass as `before` to get the next page; nil on the last page.
    public var nextBefore: Date?

    public init(items: [Notification], unreadCount: Int, nextBefore: Date?) {
        self.items = items
        self.unreadCount = unreadCount
        self.nextBefore = nextBefore
    }
}
