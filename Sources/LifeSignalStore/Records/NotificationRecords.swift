import Foundation
import LifeSignalModels

/// A notification to insert, once per `stepKey` (nil: no step, always inserted).
public struct NewNotification: Sendable {
    public var notification: LifeSignalModels.Notification
    public var stepKey: String?

    public init(_ notification: LifeSignalModels.Notification, stepKey: String?) {
        self.notification = notification
        self.stepKey = stepKey
    }
}

extension StoreTransaction {
    /// Notifications: each person's inbox (read, hidden, pruned) and the texts the outbox sends.
    public struct Notifications: Sendable {
        let tx: StoreTransaction
    }

    public var notifications: Notifications { Notifications(tx: self) }
}

extension StoreTransaction.Notifications {
    /// Inserts a notification once per `stepKey`: false when that step was already notified.
    /// The store's own tests use it; the core inserts notifications in batches.
    func insert(_ n: LifeSignalModels.Notification, stepKey: String? = nil) async throws -> Bool {
        try await insert([NewNotification(n, stepKey: stepKey)]).contains(n.id)
    }

    /// Records notifications; returns the ids of those recorded. One whose step key is taken
    /// (that step was already notified) is left out.
    public func insert(
        _ notifications: [NewNotification]
    ) async throws -> Set<NotificationID> {
        let rows = try await tx.multiRow(
            "INSERT INTO notifications (id, recipient_id, type, subject_user_id, incident_id, title, body, "
                + "created_at, read_at, step_key) VALUES ",
            row: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", suffix: " ON CONFLICT DO NOTHING RETURNING id",
            notifications.map { new in
                let (n, stepKey) = (new.notification, new.stepKey)
                return [
                    n.id.sqlValue, n.recipientID.sqlValue, n.type.rawValue.sqlValue, n.subjectUserID.sqlValue,
                    n.incidentID.sqlValue, n.title.sqlValue, n.body.sqlValue, n.createdAt.sqlValue, n.readAt.sqlValue,
                    stepKey.sqlValue,
                ]
            })
        return Set(try rows.map { try $0.id("id") })
    }

    /// A person's notifications that `query` shows, among those since `since` (the history's start).
    public func list(
        of userID: UserID, _ query: NotificationQuery, since: Date
    ) async throws -> [LifeSignalModels.Notification] {
        var sql = "SELECT * FROM notifications WHERE recipient_id = ? AND hidden_at IS NULL AND created_at >= ? AND created_at < ?"
        var binds: [SQLValue] = [userID.sqlValue, since.sqlValue, (query.before ?? .distantFuture).sqlValue]
        if let category = query.category {
            let types = LifeSignalModels.Notification.Kind.allCases.filter { $0.category == category }
            sql += " AND type IN (\(Array(repeating: "?", count: types.count).joined(separator: ", ")))"
            binds += types.map { $0.rawValue.sqlValue }
        }
        if query.unreadOnly { sql += " AND read_at IS NULL" }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        binds.append(query.limit.sqlValue)
        return try await tx.db.query(sql, binds).map(StoreTransaction.decodeNotification)
    }

    public func notification(_ id: NotificationID) async throws -> LifeSignalModels.Notification? {
        try await tx.db.queryFirst("SELECT * FROM notifications WHERE id = ?", id).map(StoreTransaction.decodeNotification)
    }

    public func unreadCount(of userID: UserID, since: Date) async throws -> Int {
        try await tx.db.queryFirst(
            "SELECT COUNT(*) AS n FROM notifications WHERE recipient_id = ? AND read_at IS NULL AND hidden_at IS NULL AND created_at >= ?",
            userID, since)?.int("n") ?? 0
    }

    @discardableResult
    public func markRead(_ id: NotificationID, of userID: UserID, at: Date) async throws -> Bool {
        try await tx.db.execute(
            "UPDATE notifications SET read_at = COALESCE(read_at, ?) WHERE id = ? AND recipient_id = ?",
            at, id, userID) > 0
    }

    /// Takes the proof code out of channel-code notifications whose send is settled: the row
    /// stays (its deliveries are the proof the page shows), the code does not.
    public func scrubProofCodes(_ ids: [NotificationID]) async throws {
        guard !ids.isEmpty else { return }
        let list = StoreTransaction.inList(ids)
        try await tx.db.execute(
            "UPDATE notifications SET title = ?, body = ? WHERE type = 'channel_code' AND id IN \(list.sql)",
            ["Proof code sent".sqlValue, "A proof code was sent here; it is not kept once sent.".sqlValue] + list.binds)
    }

    /// Marks read `userID`'s unread notifications of `kind` about `subject` (a request once it
    /// is answered, wherever it was answered).
    @discardableResult
    public func markRead(
        of userID: UserID, kind: LifeSignalModels.Notification.Kind, subject: UserID, at: Date
    ) async throws -> Int {
        try await tx.db.execute(
            "UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND type = ? AND subject_user_id = ? AND read_at IS NULL",
            at, userID, kind.rawValue, subject)
    }

    /// Marks read what `unreadCount(of:since:)` counts, and says how many: the unread of her
    /// history since `since`, not those she deleted or that are older.
    @discardableResult
    public func markAllRead(of userID: UserID, since: Date, at: Date) async throws -> Int {
        try await tx.db.execute(
            "UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL AND hidden_at IS NULL AND created_at >= ?",
            at, userID, since)
    }

    @discardableResult
    /// Takes a notification out of its recipient's history. The row stays: its deliveries are
    /// the proof the person it is about sees, and a queued one is still sent.
    public func hide(_ id: NotificationID, of userID: UserID, at: Date) async throws -> Bool {
        try await tx.db.execute(
            "UPDATE notifications SET hidden_at = ? WHERE id = ? AND recipient_id = ? AND hidden_at IS NULL", at, id, userID) > 0
    }
}

extension StoreTransaction {
    static func decodeNotification(_ row: SQLRow) throws -> LifeSignalModels.Notification {
        LifeSignalModels.Notification(
            id: try row.id("id"), recipientID: try row.id("recipient_id"),
            type: try row.value("type", as: LifeSignalModels.Notification.Kind.self),
            subjectUserID: try row.optionalID("subject_user_id"), incidentID: try row.optionalID("incident_id"),
            title: try row.string("title"), body: try row.string("body"),
            createdAt: try row.date("created_at"), readAt: try row.optionalDate("read_at"))
    }
}
