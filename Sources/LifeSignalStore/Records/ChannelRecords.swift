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
    /// The ways each person is reached (channels: their proof codes and webhook secrets) and
    /// what the store knows of each phone number (opted out, whose it is).
    public struct Channels: Sendable {
        let tx: StoreTransaction
    }

    public var channels: Channels { Channels(tx: self) }
}

extension StoreTransaction.Channels {
    public func insert(_ c: Channel) async throws {
        try await tx.db.execute(
            """
            INSERT INTO channels (id, user_id, kind, address, priority, categories, created_at, verified_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            c.id, c.userID, c.kind.rawValue, c.address, c.priority,
            c.categories.map(\.rawValue).sorted().joined(separator: ","), c.createdAt, c.verifiedAt)
    }

    /// Channels with their signing secrets (as ``setSigningSecret(_:_:)`` stores them),
    /// many rows per statement (seeding: the benchmarks).
    public func insert(_ channels: [NewChannel]) async throws {
        try await tx.multiRow(
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
    public func setSigningSecret(_ id: ChannelID, _ secret: String?) async throws {
        try await tx.db.execute("UPDATE channels SET signing_secret = ? WHERE id = ?", secret, id)
    }

    /// Webhook secrets stored before they were sealed (no `sealed:` prefix), a batch at a time.
    public func unsealedWebhookSecrets(limit: Int) async throws -> [UnsealedWebhookSecret] {
        try await tx.db.query(
            "SELECT id, signing_secret FROM channels WHERE signing_secret IS NOT NULL AND signing_secret NOT LIKE 'sealed:%' LIMIT ?",
            limit
        ).map { UnsealedWebhookSecret(id: try $0.id("id"), secret: try $0.string("signing_secret")) }
    }

    /// The signing secrets of these people's webhook channels that have one, by address.
    public func webhookSecrets(of userIDs: Set<UserID>) async throws -> [UserID: [String: String]] {
        guard !userIDs.isEmpty else { return [:] }
        let list = StoreTransaction.inList(Array(userIDs))
        let rows = try await tx.db.query(
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
    public func setCode(_ id: ChannelID, codeHash: String, expiresAt: Date) async throws {
        try await tx.db.execute(
            "UPDATE channels SET verify_code_hash = ?, verify_expires_at = ?, verify_attempts = 0 WHERE id = ? AND verified_at IS NULL",
            codeHash, expiresAt, id)
    }

    /// Claims one attempt at an unverified channel's code in one statement (so parallel guesses
    /// stop at `limit`) and returns the code's hash and expiry, or nil when no attempt is left.
    public func claimCodeAttempt(_ id: ChannelID, of userID: UserID, limit: Int) async throws -> ChannelCodeHash? {
        try await tx.db.queryFirst(
            """
            UPDATE channels SET verify_attempts = verify_attempts + 1
            WHERE id = ? AND user_id = ? AND verified_at IS NULL AND verify_code_hash IS NOT NULL AND verify_attempts < ?
            RETURNING verify_code_hash, verify_expires_at
            """, id, userID, limit
        ).map { ChannelCodeHash(hash: try $0.string("verify_code_hash"), expiresAt: try $0.date("verify_expires_at")) }
    }

    public func markVerified(_ id: ChannelID, at: Date) async throws {
        try await tx.db.execute(
            "UPDATE channels SET verified_at = ?, verify_code_hash = NULL, verify_expires_at = NULL WHERE id = ?", at, id)
    }

    /// Makes the person's text and call channels at `address` unproved again (their number
    /// changed: the old one may now be someone else's). Returns how many.
    @discardableResult
    public func unproveNumberChannels(of userID: UserID, address: String) async throws -> Int {
        try await tx.db.execute(
            "UPDATE channels SET verified_at = NULL WHERE user_id = ? AND address = ? AND kind IN ('sms', 'voice')",
            userID, address)
    }

    public func all(of userID: UserID) async throws -> [Channel] {
        try await all(of: [userID])[userID] ?? []
    }

    /// Each person's channels in their order; people with none are absent.
    public func all(of userIDs: [UserID]) async throws -> [UserID: [Channel]] {
        guard !userIDs.isEmpty else { return [:] }
        let list = StoreTransaction.inList(userIDs)
        let rows = try await tx.db.query(
            "SELECT * FROM channels WHERE user_id IN \(list.sql) ORDER BY priority, created_at", list.binds)
        return Dictionary(grouping: try rows.map(StoreTransaction.decodeChannel), by: \.userID)
    }

    @discardableResult
    public func delete(_ id: ChannelID, of userID: UserID) async throws -> Bool {
        try await tx.db.execute("DELETE FROM channels WHERE id = ? AND user_id = ?", id, userID) > 0
    }
}

extension StoreTransaction {
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
