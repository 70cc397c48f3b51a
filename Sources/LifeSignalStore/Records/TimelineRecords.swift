import Crypto
import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Appends to the user's hash-chained timeline. The head hash and sequence live on the
    /// user row, so an append is one read of a row already hot and one insert.
    @discardableResult
    public func appendTimeline(
        _ userID: UserID, at: Date, kind: String, summary: String, detail: String
    ) async throws -> TimelineEntry {
        // PostgreSQL: lock the user row, so concurrent appends queue instead of both reading
        // the same head (SQLite has one writer and needs nothing).
        let lock = dialect == .postgres ? " FOR UPDATE" : ""
        guard let row = try await db.queryFirst(
            "SELECT timeline_seq, timeline_head FROM users WHERE id = ?\(lock)", userID)
        else { throw StoreError.constraint("no user \(userID)") }
        let sequence = try row.int("timeline_seq") + 1
        let previous = try row.string("timeline_head")
        let hash = Self.timelineHash(
            previousHash: previous, sequence: sequence, userID: userID, at: at, kind: kind, summary: summary,
            detail: detail)
        try await db.execute(
            """
            INSERT INTO timeline (user_id, seq, at, kind, summary, detail, prev_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, userID, sequence, at, kind, summary, detail, previous, hash)
        try await db.execute(
            "UPDATE users SET timeline_seq = ?, timeline_head = ? WHERE id = ?", sequence, hash, userID)
        return TimelineEntry(
            sequence: sequence, userID: userID, at: Date(milliseconds: at.milliseconds), kind: kind,
            summary: summary, detail: detail, previousHash: previous, hash: hash)
    }

    /// Entries in order; `after` pages forwards by sequence.
    public func timeline(of userID: UserID, after: Int = 0, limit: Int = 10_000) async throws -> [TimelineEntry] {
        try await db.query(
            "SELECT * FROM timeline WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?", userID, after, limit
        ).map { row in
            TimelineEntry(
                sequence: try row.int("seq"), userID: try row.id("user_id"), at: try row.date("at"),
                kind: try row.string("kind"), summary: try row.string("summary"),
                detail: try row.string("detail"), previousHash: try row.string("prev_hash"),
                hash: try row.string("hash"))
        }
    }

    /// The hash that chains an entry to the one before: hex SHA-256 of its canonical text.
    public static func timelineHash(
        previousHash: String, sequence: Int, userID: UserID, at: Date, kind: String, summary: String, detail: String
    ) -> String {
        let text = TimelineEntry.canonicalText(
            previousHash: previousHash, sequence: sequence, userID: userID, atMilliseconds: at.milliseconds,
            kind: kind, summary: summary, detail: detail)
        return SHA256.hash(data: Data(text.utf8)).lowercaseHex
    }
}
