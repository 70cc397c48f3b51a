import Crypto
import Foundation
import LifeSignalModels
import Synchronization

/// The timeline heads one transaction has moved (used by one task at a time; the lock is for `Sendable`).
final class TimelineHeads: Sendable {
    struct Head: Sendable {
        var sequence: Int
        var hash: String
    }

    private let heads = Mutex<[UserID: Head]>([:])

    func head(of userID: UserID) -> Head? { heads.withLock { $0[userID] } }

    func set(_ head: Head, of userID: UserID) { heads.withLock { $0[userID] = head } }

    func takeAll() -> [(UserID, Head)] {
        heads.withLock { heads in
            defer { heads.removeAll() }
            return heads.map { ($0.key, $0.value) }
        }
    }
}

extension StoreTransaction {
    /// Appends to the user's hash-chained timeline. The head hash and sequence live on the
    /// user row: the first append in a transaction reads them (locking the row on PostgreSQL,
    /// so concurrent appends queue instead of both reading the same head); later ones in the
    /// same transaction continue from memory, and `finish()` writes the new head once.
    @discardableResult
    public func appendTimeline(
        _ userID: UserID, at: Date, kind: String, summary: String, detail: String
    ) async throws -> TimelineEntry {
        let head: TimelineHeads.Head
        if let known = timelineHeads.head(of: userID) {
            head = known
        } else {
            let lock = dialect == .postgres ? " FOR UPDATE" : ""
            guard let row = try await db.queryFirst(
                "SELECT timeline_seq, timeline_head FROM users WHERE id = ?\(lock)", userID)
            else { throw StoreError.constraint("no user \(userID)") }
            head = TimelineHeads.Head(sequence: try row.int("timeline_seq"), hash: try row.string("timeline_head"))
        }
        let sequence = head.sequence + 1
        let hash = Self.timelineHash(
            previousHash: head.hash, sequence: sequence, userID: userID, at: at, kind: kind, summary: summary,
            detail: detail)
        try await db.execute(
            """
            INSERT INTO timeline (user_id, seq, at, kind, summary, detail, prev_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, userID, sequence, at, kind, summary, detail, head.hash, hash)
        timelineHeads.set(TimelineHeads.Head(sequence: sequence, hash: hash), of: userID)
        return TimelineEntry(
            sequence: sequence, userID: userID, at: Date(milliseconds: at.milliseconds), kind: kind,
            summary: summary, detail: detail, previousHash: head.hash, hash: hash)
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
