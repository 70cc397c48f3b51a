import Foundation

/// Which notifications a list shows, newest first: one category or all, unread only or all,
/// those before a moment (the `nextBefore` of the previous page; nil for the newest), at most
/// `limit`. The app asks for it, `GET /v1/notifications` carries it in its query, and the store
/// reads it (with the history's start).
public struct NotificationQuery: Hashable, Sendable {
    public static let defaultLimit = 50

    public var category: Notification.Category?
    public var unreadOnly: Bool
    public var before: Date?
    public var limit: Int

    public init(
        category: Notification.Category? = nil, unreadOnly: Bool = false, before: Date? = nil,
        limit: Int = NotificationQuery.defaultLimit
    ) {
        self.category = category
        self.unreadOnly = unreadOnly
        self.before = before
        self.limit = limit
    }
}
