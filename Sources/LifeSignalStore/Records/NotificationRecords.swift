import Foundation
import LifeSignalModels

/// Which notifications a list shows.
public struct NotificationQuery: Sendable, Equatable {
    public var category: LifeSignalModels.Notification.Category?
    public var unreadOnly: Bool
    public var before: Date?
    public var since: Date
    public var limit: Int

    public init(category: LifeSignalModels.Notification.Category? = nil, unreadOnly: Bool = false, before: Date? = nil, since: Date, limit: Int = 50) {
        self.category = category
        self.unreadOnly = unreadOnly
        self.before = before
        self.since = since
        self.limit = limit
    }
}

extension StoreTransaction {
    /// Inserts a notification once per `stepKey`: false when that step was already notified.
    public func insertNotification(_ n: LifeSignalModels.Notification, stepKey: String? = nil) async throws -> Bool {
        try await db.execute(
            """
            INSERT INTO notifications (id, recipient_id, type, subject_user_id, incident_id, title, body, created_at, read_at, step_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """,
            n.id, n.recipientID, n.type.rawValue, n.subjectUserID, n.incidentID, n.title, n.body,
            n.createdAt, n.readAt, stepKey) > 0
    }

    public func notifications(of userID: UserID, _ query: NotificationQuery) async throws -> [LifeSignalModels.Notification] {
        var sql = "SELECT * FROM notifications WHERE recipient_id = ? AND created_at >= ? AND created_at < ?"
        var binds: [SQLValue] = [userID.sqlValue, query.since.sqlValue, (query.before ?? .distantFuture).sqlValue]
        if let category = query.category {
            let types = LifeSignalModels.Notification.Kind.allCases.filter { $0.category == category }
            sql += " AND type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))"
            binds += types.map { $0.rawValue.sqlValue }
        }
        if query.unreadOnly { sql += " AND read_at IS NULL" }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        binds.append(query.limit.sqlValue)
        return try await db.query(sql, binds).map(Self.decodeNotification)
    }

    public func notification(_ id: NotificationID) async throws -> LifeSignalModels.Notification? {
        try await db.queryFirst("SELECT * FROM notifications WHERE id = ?", id).map(Self.decodeNotification)
    }

    public func unreadCount(of userID: UserID, since: Date) async throws -> Int {
        try await db.queryFirst(
            "SELECT COUNT(*) AS n FROM notifications WHERE recipient_id = ? AND read_at IS NULL AND created_at >= ?",
            userID, since)?.int("n") ?? 0
    }

    @discardableResult
    public func markNotificationRead(_ id: NotificationID, of userID: UserID, at: Date) async throws -> Bool {
        try await db.execute(
            "UPDATE notifications SET read_at = COALESCE(read_at, ?) WHERE id = ? AND recipient_id = ?",
            at, id, userID) > 0
    }

    @discardableResult
    public func markAllNotificationsRead(of userID: UserID, at: Date) async throws -> Int {
        try await db.execute(
            "UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL", at, userID)
    }

    @discardableResult
    public func deleteNotification(_ id: NotificationID, of userID: UserID) async throws -> Bool {
        try await db.execute("DELETE FROM notifications WHERE id = ? AND recipient_id = ?", id, userID) > 0
    }

    static func decodeNotification(_ row: SQLRow) throws -> LifeSignalModels.Notification {
        LifeSignalModels.Notification(
            id: try row.id("id"), recipientID: try row.id("recipient_id"),
            type: LifeSignalModels.Notification.Kind(rawValue: try row.string("type")) ?? .drill,
            subjectUserID: try row.optionalID("subject_user_id"), incidentID: try row.optionalID("incident_id"),
            title: try row.string("title"), body: try row.string("body"),
            createdAt: try row.date("created_at"), readAt: try row.optionalDate("read_at"))
    }
}

extension StoreTransaction {
    public func insertChannel(_ c: Channel) async throws {
        try await db.execute(
            """
            INSERT INTO channels (id, user_id, kind, address, priority, categories, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            c.id, c.userID, c.kind.rawValue, c.address, c.priority,
            c.categories.map(\.rawValue).sorted().joined(separator: ","), c.createdAt)
    }

    public func channels(of userID: UserID) async throws -> [Channel] {
        try await db.query("SELECT * FROM channels WHERE user_id = ? ORDER BY priority, created_at", userID)
            .map(Self.decodeChannel)
    }

    @discardableResult
    public func deleteChannel(_ id: ChannelID, of userID: UserID) async throws -> Bool {
        try await db.execute("DELETE FROM channels WHERE id = ? AND user_id = ?", id, userID) > 0
    }

    static func decodeChannel(_ row: SQLRow) throws -> Channel {
        Channel(
            id: try row.id("id"), userID: try row.id("user_id"),
            kind: ChannelKind(rawValue: try row.string("kind")) ?? .log, address: try row.string("address"),
            priority: try row.int("priority"),
            categories: Set(try row.string("categories").split(separator: ",").compactMap {
                LifeSignalModels.Notification.Category(rawValue: String($0))
            }),
            createdAt: try row.date("created_at"))
    }
}
