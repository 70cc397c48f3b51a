import Foundation
import LifeSignalModels

/// A webhook channel's signing secret stored before secrets were sealed.
public struct UnsealedWebhookSecret: Sendable, Hashable {
    public var id: ChannelID
    public var secret: String
}

/// The hash of the code sent to an unproved channel, and when it expires.
public struct ChannelCodeHash: Sendable, Hashable {
    public var hash: String
    public var expiresAt: Date
}

/// A notification to insert, once per `stepKey` (nil: no step, always inserted).
public struct NewNotification: Sendable {
    public var notification: LifeSignalModels.Notification
    public var stepKey: String?

    public init(_ notification: LifeSignalModels.Notification, stepKey: String?) {
        self.notification = notification
        self.stepKey = stepKey
    }
}

/// A channel to insert with its webhook signing secret, if any.
public struct NewChannel: Sendable {
    public var channel: Channel
    public var signingSecret: String?

    public init(channel: Channel, signingSecret: String?) {
        self.channel = channel
        self.signingSecret = signingSecret
    }
}

extension StoreTransaction {
    /// Inserts a notification once per `stepKey`: false when that step was already notified.
    /// The store's own tests use it; the core inserts notifications in batches.
    func insertNotification(_ n: LifeSignalModels.Notification, stepKey: String? = nil) async throws -> Bool {
        try await insertNotifications([NewNotification(n, stepKey: stepKey)]).contains(n.id)
    }

    /// Records notifications; returns the ids of those recorded. One whose step key is taken
    /// (that step was already notified) is left out.
    public func insertNotifications(
        _ notifications: [NewNotification]
    ) async throws -> Set<NotificationID> {
        let rows = try await multiRow(
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
    public func notifications(
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
        return try await db.query(sql, binds).map(Self.decodeNotification)
    }

    public func notification(_ id: NotificationID) async throws -> LifeSignalModels.Notification? {
        try await db.queryFirst("SELECT * FROM notifications WHERE id = ?", id).map(Self.decodeNotification)
    }

    public func unreadCount(of userID: UserID, since: Date) async throws -> Int {
        try await db.queryFirst(
            "SELECT COUNT(*) AS n FROM notifications WHERE recipient_id = ? AND read_at IS NULL AND hidden_at IS NULL AND created_at >= ?",
            userID, since)?.int("n") ?? 0
    }

    @discardableResult
    public func markNotificationRead(_ id: NotificationID, of userID: UserID, at: Date) async throws -> Bool {
        try await db.execute(
            "UPDATE notifications SET read_at = COALESCE(read_at, ?) WHERE id = ? AND recipient_id = ?",
            at, id, userID) > 0
    }

    /// Takes the proof code out of channel-code notifications whose send is settled: the row
    /// stays (its deliveries are the proof the page shows), the code does not.
    public func scrubProofCodes(_ ids: [NotificationID]) async throws {
        guard !ids.isEmpty else { return }
        let list = Self.inList(ids)
        try await db.execute(
            "UPDATE notifications SET title = ?, body = ? WHERE type = 'channel_code' AND id IN \(list.sql)",
            ["Proof code sent".sqlValue, "A proof code was sent here; it is not kept once sent.".sqlValue] + list.binds)
    }

    /// Marks read `userID`'s unread notifications of `kind` about `subject` (a request once it
    /// is answered, wherever it was answered).
    @discardableResult
    public func markNotificationsRead(
        of userID: UserID, kind: LifeSignalModels.Notification.Kind, subject: UserID, at: Date
    ) async throws -> Int {
        try await db.execute(
            "UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND type = ? AND subject_user_id = ? AND read_at IS NULL",
            at, userID, kind.rawValue, subject)
    }

    @discardableResult
    public func markAllNotificationsRead(of userID: UserID, at: Date) async throws -> Int {
        try await db.execute(
            "UPDATE notifications SET read_at = ? WHERE recipient_id = ? AND read_at IS NULL", at, userID)
    }

    @discardableResult
    /// Takes a notification out of its recipient's history. The row stays: its deliveries are
    /// the proof the person it is about sees, and a queued one is still sent.
    public func hideNotification(_ id: NotificationID, of userID: UserID, at: Date) async throws -> Bool {
        try await db.execute(
            "UPDATE notifications SET hidden_at = ? WHERE id = ? AND recipient_id = ? AND hidden_at IS NULL", at, id, userID) > 0
    }

    static func decodeNotification(_ row: SQLRow) throws -> LifeSignalModels.Notification {
        LifeSignalModels.Notification(
            id: try row.id("id"), recipientID: try row.id("recipient_id"),
            type: try row.value("type", as: LifeSignalModels.Notification.Kind.self),
            subjectUserID: try row.optionalID("subject_user_id"), incidentID: try row.optionalID("incident_id"),
            title: try row.string("title"), body: try row.string("body"),
            createdAt: try row.date("created_at"), readAt: try row.optionalDate("read_at"))
    }
}

extension StoreTransaction {
    public func insertChannel(_ c: Channel) async throws {
        try await db.execute(
            """
            INSERT INTO channels (id, user_id, kind, address, priority, categories, created_at, verified_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            c.id, c.userID, c.kind.rawValue, c.address, c.priority,
            c.categories.map(\.rawValue).sorted().joined(separator: ","), c.createdAt, c.verifiedAt)
    }

    /// Channels with their signing secrets (as ``setChannelSigningSecret(_:_:)`` stores them),
    /// many rows per statement (seeding: the benchmarks).
    public func insertChannels(_ channels: [NewChannel]) async throws {
        try await multiRow(
            "INSERT INTO channels (id, user_id, kind, address, priority, categories, created_at, verified_at, signing_secret) VALUES ",
            row: "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
            channels.map { new in
                let (c, secret) = (new.channel, new.signingSecret)
                return [
                    c.id.sqlValue, c.userID.sqlValue, c.kind.rawValue.sqlValue, c.address.sqlValue, c.priority.sqlValue,
                    c.categories.map(\.rawValue).sorted().joined(separator: ",").sqlValue, c.createdAt.sqlValue,
                    c.verifiedAt.sqlValue, secret.sqlValue,
                ]
            })
    }

    /// Gives a webhook channel its own signing secret (sealed by the core with the server key).
    public func setChannelSigningSecret(_ id: ChannelID, _ secret: String?) async throws {
        try await db.execute("UPDATE channels SET signing_secret = ? WHERE id = ?", secret, id)
    }

    /// Webhook secrets stored before they were sealed (no `sealed:` prefix), a batch at a time.
    public func unsealedWebhookSecrets(limit: Int) async throws -> [UnsealedWebhookSecret] {
        try await db.query(
            "SELECT id, signing_secret FROM channels WHERE signing_secret IS NOT NULL AND signing_secret NOT LIKE 'sealed:%' LIMIT ?",
            limit
        ).map { UnsealedWebhookSecret(id: try $0.id("id"), secret: try $0.string("signing_secret")) }
    }

    /// The signing secrets of these people's webhook channels that have one, by address.
    public func webhookSecrets(of userIDs: Set<UserID>) async throws -> [UserID: [String: String]] {
        guard !userIDs.isEmpty else { return [:] }
        let list = Self.inList(Array(userIDs))
        let rows = try await db.query(
            """
            SELECT user_id, address, signing_secret FROM channels
            WHERE kind = 'webhook' AND signing_secret IS NOT NULL AND user_id IN \(list.sql)
            """, list.binds)
        var secrets: [UserID: [String: String]] = [:]
        for row in rows {
            secrets[try row.id("user_id"), default: [:]][try row.string("address")] = try row.string("signing_secret")
        }
        return secrets
    }

    /// Stores the hash of the code sent to an unverified channel, with its expiry; attempts restart.
    public func setChannelCode(_ id: ChannelID, codeHash: String, expiresAt: Date) async throws {
        try await db.execute(
            "UPDATE channels SET verify_code_hash = ?, verify_expires_at = ?, verify_attempts = 0 WHERE id = ? AND verified_at IS NULL",
            codeHash, expiresAt, id)
    }

    /// Claims one attempt at an unverified channel's code in one statement (so parallel guesses
    /// stop at `limit`) and returns the code's hash and expiry, or nil when no attempt is left.
    public func claimChannelCodeAttempt(_ id: ChannelID, of userID: UserID, limit: Int) async throws -> ChannelCodeHash? {
        try await db.queryFirst(
            """
            UPDATE channels SET verify_attempts = verify_attempts + 1
            WHERE id = ? AND user_id = ? AND verified_at IS NULL AND verify_code_hash IS NOT NULL AND verify_attempts < ?
            RETURNING verify_code_hash, verify_expires_at
            """, id, userID, limit
        ).map { ChannelCodeHash(hash: try $0.string("verify_code_hash"), expiresAt: try $0.date("verify_expires_at")) }
    }

    public func markChannelVerified(_ id: ChannelID, at: Date) async throws {
        try await db.execute(
            "UPDATE channels SET verified_at = ?, verify_code_hash = NULL, verify_expires_at = NULL WHERE id = ?", at, id)
    }

    /// Makes the person's text and call channels at `address` unproved again (their number
    /// changed: the old one may now be someone else's). Returns how many.
    @discardableResult
    public func unproveNumberChannels(of userID: UserID, address: String) async throws -> Int {
        try await db.execute(
            "UPDATE channels SET verified_at = NULL WHERE user_id = ? AND address = ? AND kind IN ('sms', 'voice')",
            userID, address)
    }

    public func channels(of userID: UserID) async throws -> [Channel] {
        try await channels(of: [userID])[userID] ?? []
    }

    /// Each person's channels in their order; people with none are absent.
    public func channels(of userIDs: [UserID]) async throws -> [UserID: [Channel]] {
        guard !userIDs.isEmpty else { return [:] }
        let list = Self.inList(userIDs)
        let rows = try await db.query(
            "SELECT * FROM channels WHERE user_id IN \(list.sql) ORDER BY priority, created_at", list.binds)
        return Dictionary(grouping: try rows.map(Self.decodeChannel), by: \.userID)
    }

    @discardableResult
    public func deleteChannel(_ id: ChannelID, of userID: UserID) async throws -> Bool {
        try await db.execute("DELETE FROM channels WHERE id = ? AND user_id = ?", id, userID) > 0
    }

    static func decodeChannel(_ row: SQLRow) throws -> Channel {
        Channel(
            id: try row.id("id"), userID: try row.id("user_id"),
            kind: try row.value("kind", as: ChannelKind.self), address: try row.string("address"),
            priority: try row.int("priority"),
            categories: Set(
                try row.string("categories").split(separator: ",").map {
                    guard let category = LifeSignalModels.Notification.Category(rawValue: String($0)) else {
                        throw StoreError.decoding("column categories holds unknown category \"\($0)\"")
                    }
                    return category
                }),
            createdAt: try row.date("created_at"), verifiedAt: try row.optionalDate("verified_at"))
    }
}
