import Foundation
import LifeSignalModels

/// Filters and paging of the notification history.
public struct NotificationQuery: Hashable, Sendable {
    public var category: LifeSignalModels.Notification.Category?
    public var unreadOnly: Bool
    /// The `nextBefore` of the previous page; nil for the newest.
    public var before: Date?
    public var limit: Int

    public init(
        category: LifeSignalModels.Notification.Category? = nil, unreadOnly: Bool = false, before: Date? = nil,
        limit: Int = 50
    ) {
        self.category = category
        self.unreadOnly = unreadOnly
        self.before = before
        self.limit = limit
    }
}
