import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Pings: a responder asking a dependent whether she is fine, pending until answered or cleared.
    public struct Pings: Sendable {
        let tx: StoreTransaction
    }

    public var pings: Pings { Pings(tx: self) }
}

extension StoreTransaction.Pings {
    /// Throws `.constraint` when a ping from this responder is already pending.
    public func insert(_ ping: Ping) async throws {
        try await tx.db.execute(
            "INSERT INTO pings (id, from_user_id, to_user_id, sent_at) VALUES (?, ?, ?, ?)",
            ping.id, ping.fromUserID, ping.toUserID, ping.sentAt)
    }

    public func ping(_ id: PingID) async throws -> Ping? {
        try await tx.db.queryFirst("SELECT * FROM pings WHERE id = ?", id).map(StoreTransaction.decodePing)
    }

    public func pending(from: UserID, to: UserID) async throws -> Ping? {
        try await tx.db.queryFirst(
            """
            SELECT * FROM pings WHERE from_user_id = ? AND to_user_id = ?
            AND answered_at IS NULL AND cleared_at IS NULL
            """, from, to
        ).map(StoreTransaction.decodePing)
    }

    /// Pending pings sent to or by a user.
    public func pending(involving userID: UserID) async throws -> [Ping] {
        try await tx.db.query(
            """
            SELECT * FROM pings WHERE (to_user_id = ? OR from_user_id = ?)
            AND answered_at IS NULL AND cleared_at IS NULL ORDER BY sent_at
            """, userID, userID
        ).map(StoreTransaction.decodePing)
    }

    public func answer(_ id: PingID, at: Date) async throws -> Bool {
        try await tx.db.execute(
            "UPDATE pings SET answered_at = ? WHERE id = ? AND answered_at IS NULL AND cleared_at IS NULL",
            at, id) > 0
    }

    public func clear(_ id: PingID, at: Date) async throws -> Bool {
        try await tx.db.execute(
            "UPDATE pings SET cleared_at = ? WHERE id = ? AND answered_at IS NULL AND cleared_at IS NULL",
            at, id) > 0
    }
}

extension StoreTransaction {
    static func decodePing(_ row: SQLRow) throws -> Ping {
        Ping(
            id: try row.id("id"), fromUserID: try row.id("from_user_id"),
            toUserID: try row.id("to_user_id"), sentAt: try row.date("sent_at"),
            answeredAt: try row.optionalDate("answered_at"), clearedAt: try row.optionalDate("cleared_at"))
    }
}
