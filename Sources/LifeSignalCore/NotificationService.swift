import Foundation
import LifeSignalModels
import LifeSignalStore

extension LifeSignalService {
    /// The last 30 days, newest first, filtered by category and read state.
    public func notifications(
        _ caller: Caller, category: Notification.Category?, unreadOnly: Bool, before: Date?, limit: Int
    ) async throws -> NotificationPage {
        let limit = min(max(limit, 1), 100)
        let since = now.addingTimeInterval(-Double(configuration.notificationHistoryDays) * 86400)
        return try await read { tx in
            let items = try await tx.notifications(
                of: caller.user.id,
                NotificationQuery(category: category, unreadOnly: unreadOnly, before: before, since: since, limit: limit))
            return NotificationPage(
                items: items, unreadCount: try await tx.unreadCount(of: caller.user.id, since: since),
                nextBefore: items.count == limit ? items.last?.createdAt : nil)
        }
    }

    public func markNotificationRead(_ caller: Caller, id: NotificationID) async throws {
        let found = try await write { tx, _ in try await tx.markNotificationRead(id, of: caller.user.id, at: now) }
        guard found else { throw Self.notificationNotFound }
    }

    public func markAllNotificationsRead(_ caller: Caller) async throws -> Int {
        try await write { tx, _ in try await tx.markAllNotificationsRead(of: caller.user.id, at: now) }
    }

    public func deleteNotification(_ caller: Caller, id: NotificationID) async throws {
        let found = try await write { tx, _ in try await tx.hideNotification(id, of: caller.user.id, at: now) }
        guard found else { throw Self.notificationNotFound }
    }

    /// Every delivery attempt for one of the caller's notifications.
    public func deliveries(_ caller: Caller, notification id: NotificationID) async throws -> [Delivery] {
        try await read { tx in
            guard try await tx.notification(id)?.recipientID == caller.user.id else { throw Self.notificationNotFound }
            return try await tx.deliveries(notification: id)
        }
    }

    static let notificationNotFound = ServiceError(.notFound, code: .notificationNotFound, "That notification doesn't exist.")
}
