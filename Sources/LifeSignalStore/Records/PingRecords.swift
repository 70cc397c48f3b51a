import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Throws `.constraint` when a ping from this responder is already pending.
    public func insertPing(_ ping: Ping) async throws {
        try await db.execute(
            "INSERT INTO pings (id, from_user_id, to_user_id, sent_at) VALUES (?, ?, ?, ?)",
            ping.id, ping.fromUserID, ping.toUserID, ping.sentAt)
    }

    public func ping(_ id: PingID) async throws -> Ping? {
        try await db.queryFirst("SELECT * FROM pings WHERE id = ?", id).map(Self.decodePing)
    }

    public func pendingPing(from: UserID, to: UserID) async throws -> Ping? {
        try await db.queryFirst(
            """
            SELECT * FROM pings WHERE from_user_id = ? AND to_user_id = ?
            AND answered_at IS NULL AND cleared_at IS NULL
            """, from, to
        ).map(Self.decodePing)
    }

    /// Pending pings sent to or by a user.
    public func pendingPings(involving userID: UserID) async throws -> [Ping] {
        try await db.query(
            """
            SELECT * FROM pings WHERE (to_user_id = ? OR from_user_id = ?)
            AND answered_at IS NULL AND cleared_at IS NULL ORDER BY sent_at
            """, userID, userID
        ).map(Self.decodePing)
    }

    public func answerPing(_ id: PingID, at: Date) async throws -> Bool {
        try await db.execute(
            "UPDATE pings SET answered_at = ? WHERE id = ? AND answered_at IS NULL AND cleared_at IS NULL",
            at, id) > 0
    }

    public func clearPing(_ id: PingID, at: Date) async throws -> Bool {
        try await db.execute(
            "UPDATE pings SET cleared_at = ? WHERE id = ? AND answered_at IS NULL AND cleared_at IS NULL",
            at, id) > 0
    }

    static func decodePing(_ row: SQLRow) throws -> Ping {
        Ping(
            id: try row.id("id"), fromUserID: try row.id("from_user_id"),
            toUserID: try row.id("to_user_id"), sentAt: try row.date("sent_at"),
            answeredAt: try row.optionalDate("answered_at"), clearedAt: try row.optionalDate("cleared_at"))
    }
}
