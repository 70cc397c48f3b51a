import Crypto
import Foundation
import LifeSignalModels
import Synchronization

/// What one transaction has appended to timelines and not yet written: each person's new head,
/// and the entries themselves, which go to the database many rows per statement. Used by one
/// task at a time (the transaction's); the lock is for `Sendable`.
final class TimelineBuffer: Sendable {
    struct Head: Sendable {
        var sequence: Int
        var hash: String
    }

    private struct State {
        /// Heads read from the database (and still there).
        var read: [UserID: Head] = [:]
        /// Heads this transaction moved and has not written yet.
        var moved: [UserID: Head] = [:]
        var entries: [TimelineEntry] = []
    }

    private let state = Mutex(State())

    func head(of userID: UserID) -> Head? { state.withLock { $0.moved[userID] ?? $0.read[userID] } }

    /// Remembers a head just read from the database (under the row's lock on PostgreSQL).
    func prime(_ userID: UserID, _ head: Head) {
        state.withLock { state in
            if state.moved[userID] == nil { state.read[userID] = head }
        }
    }

    /// Buffers an entry; returns how many are waiting.
    func append(_ entry: TimelineEntry) -> Int {
        state.withLock { state in
            state.moved[entry.userID] = Head(sequence: entry.sequence, hash: entry.hash)
            state.entries.append(entry)
            return state.entries.count
        }
    }

    /// A head written to the person's row along with its entry (one statement): from then on
    /// it counts as read, and nothing before it is left to write to the row.
    func wrote(_ userID: UserID, _ head: Head) {
        state.withLock { state in
            state.moved[userID] = nil
            state.read[userID] = head
        }
    }

    func takeEntries() -> [TimelineEntry] {
        state.withLock { state in
            defer { state.entries.removeAll() }
            return state.entries
        }
    }

    /// The head this transaction moved for `userID` and has not written, taken to be written
    /// with that person's row; from then on it counts as read.
    func takeMovedHead(of userID: UserID) -> Head? {
        state.withLock { state in
            guard let head = state.moved.removeValue(forKey: userID) else { return nil }
            state.read[userID] = head
            return head
        }
    }

    /// The moved heads, to be written; from then on they count as read.
    func takeMovedHeads() -> [(UserID, Head)] {
        state.withLock { state in
            defer {
                state.read.merge(state.moved) { _, new in new }
                state.moved.removeAll()
            }
            return state.moved.map { ($0.key, $0.value) }
        }
    }
}

/// The end of a person's hash chain as her row keeps it: the newest entry's sequence and hash.
public struct TimelineHead: Sendable, Hashable {
    public var userID: UserID
    public var sequence: Int
    public var hash: String

    public init(userID: UserID, sequence: Int, hash: String) {
        self.userID = userID
        self.sequence = sequence
        self.hash = hash
    }
}

extension StoreTransaction {
    /// Each person's hash-chained timeline: appending (from memory, written in groups), the
    /// heads on the person's row and their seals, and reading the entries.
    public struct Timeline: Sendable {
        let tx: StoreTransaction
    }

    public var timeline: Timeline { Timeline(tx: self) }
}

extension StoreTransaction.Timeline {
    /// Appends to the user's hash-chained timeline. The head hash and sequence live on the
    /// user row: the first append in a transaction reads them (locking the row on PostgreSQL,
    /// so concurrent appends queue instead of both reading the same head); later ones in the
    /// same transaction continue from memory. Entries are written in groups — at the latest by
    /// `finish()`, which also writes each moved head once (unless `people.update` wrote it with the
    /// rest of the row) — and before the timeline is read or a user deleted in the same transaction.
    @discardableResult
    public func append(
        _ userID: UserID, at: Date, kind: String, summary: String, detail: String
    ) async throws -> TimelineEntry {
        let entry = try await nextEntry(userID, at: at, kind: kind, summary: summary, detail: detail)
        if tx.timelineBuffer.append(entry) >= StoreTransaction.bufferedTimelineEntries { try await writeEntries() }
        return entry
    }

    /// The entry that would follow the person's head (read and locked first if this transaction
    /// has not yet), chained to it by hash; not yet appended.
    func nextEntry(
        _ userID: UserID, at: Date, kind: String, summary: String, detail: String
    ) async throws -> TimelineEntry {
        if tx.timelineBuffer.head(of: userID) == nil { try await lockHeads([userID]) }
        guard let head = tx.timelineBuffer.head(of: userID) else { throw StoreError.constraint("no user \(userID)") }
        let sequence = head.sequence + 1
        let hash = StoreTransaction.timelineHash(
            previousHash: head.hash, sequence: sequence, userID: userID, at: at, kind: kind, summary: summary,
            detail: detail)
        return TimelineEntry(
            sequence: sequence, userID: userID, at: Date(milliseconds: at.milliseconds), kind: kind,
            summary: summary, detail: detail, previousHash: head.hash, hash: hash)
    }

    /// Reads (and on PostgreSQL locks, in id order) the timeline heads of people this
    /// transaction is about to append to, in one query instead of one per person. Returns the
    /// people whose timelines exist (not those whose account is gone).
    @discardableResult
    public func lockHeads(_ userIDs: some Collection<UserID>) async throws -> Set<UserID> {
        var found = Set(userIDs.filter { tx.timelineBuffer.head(of: $0) != nil })
        let unknown = Set(userIDs).subtracting(found)
        guard !unknown.isEmpty else { return found }
        let list = StoreTransaction.inList(Array(unknown))
        for row in try await tx.db.query(
            "SELECT id, timeline_seq, timeline_head FROM users WHERE id IN \(list.sql)\(tx.lockRowsInIDOrder)", list.binds)
        {
            found.insert(try primeHead(from: row))
        }
        return found
    }

    /// Keeps the timeline head of a user row this transaction read under its lock (the row's
    /// `id`, `timeline_seq` and `timeline_head`); returns whose it is.
    @discardableResult
    func primeHead(from row: SQLRow) throws -> UserID {
        let id: UserID = try row.id("id")
        tx.timelineBuffer.prime(id, TimelineBuffer.Head(sequence: try row.int("timeline_seq"), hash: try row.string("timeline_head")))
        return id
    }

    /// Writes the buffered entries, many rows per statement.
    func writeEntries() async throws {
        let entries = tx.timelineBuffer.takeEntries()
        guard !entries.isEmpty else { return }
        try await tx.multiRow(
            "INSERT INTO timeline (user_id, seq, at, kind, summary, detail, prev_hash, hash) VALUES ",
            row: "(?, ?, ?, ?, ?, ?, ?, ?)",
            entries.map { entry in
                [
                    entry.userID.sqlValue, entry.sequence.sqlValue, entry.at.sqlValue, entry.kind.sqlValue,
                    entry.summary.sqlValue, entry.detail.sqlValue, entry.previousHash.sqlValue, entry.hash.sqlValue,
                ]
            })
    }

    /// Writes the heads this transaction moved, many people per statement.
    func writeHeads() async throws {
        let heads = tx.timelineBuffer.takeMovedHeads()
        guard !heads.isEmpty else { return }
        try await tx.multiRow(
            "WITH moved (id, seq, head, seal) AS (VALUES ", row: "(?, ?, ?, ?)",
            suffix: """
                ) UPDATE users SET timeline_seq = moved.seq, timeline_head = moved.head, timeline_seal = moved.seal
                FROM moved WHERE users.id = moved.id
                """,
            heads.map { id, head in
                let seal = tx.timelineKey.map {
                    StoreTransaction.timelineSeal(key: $0, userID: id, sequence: head.sequence, hash: head.hash)
                }
                return [id.sqlValue, head.sequence.sqlValue, head.hash.sqlValue, seal.sqlValue]
            })
    }

    /// When this transaction moved the person's head: the columns that write it (sequence,
    /// hash and seal) for an `UPDATE users` about to run anyway, taken off the buffer.
    func movedHeadColumns(of userID: UserID) -> (sql: String, binds: [SQLValue]) {
        guard let moved = tx.timelineBuffer.takeMovedHead(of: userID) else { return ("", []) }
        let seal = tx.timelineKey.map { StoreTransaction.timelineSeal(key: $0, userID: userID, sequence: moved.sequence, hash: moved.hash) }
        return (", timeline_seq = ?, timeline_head = ?, timeline_seal = ?", [moved.sequence.sqlValue, moved.hash.sqlValue, seal.sqlValue])
    }

    /// The seal the person's row keeps for its head (nil: never sealed).
    public func seal(of userID: UserID) async throws -> String? {
        try await writeHeads()
        return try await tx.db.queryFirst("SELECT timeline_seal FROM users WHERE id = ?", userID)?.optionalString("timeline_seal")
    }

    /// Heads written before seals existed (or by a store that seals nothing), a batch at a time.
    public func unsealedHeads(limit: Int) async throws -> [TimelineHead] {
        try await tx.db.query(
            "SELECT id, timeline_seq, timeline_head FROM users WHERE timeline_seal IS NULL LIMIT ?", limit
        ).map { TimelineHead(userID: try $0.id("id"), sequence: try $0.int("timeline_seq"), hash: try $0.string("timeline_head")) }
    }

    /// Seals a head as it stands; false when it moved meanwhile (its move sealed it).
    @discardableResult
    public func sealHead(of userID: UserID, sequence: Int, hash: String, seal: String) async throws -> Bool {
        try await tx.db.execute(
            "UPDATE users SET timeline_seal = ? WHERE id = ? AND timeline_seq = ? AND timeline_head = ? AND timeline_seal IS NULL",
            seal, userID, sequence, hash) > 0
    }

    /// The newest entry's sequence and hash as the user's row keeps them (0 and the genesis hash
    /// for an empty timeline): what a verification compares the chain's end with.
    public func head(of userID: UserID) async throws -> TimelineHead? {
        try await writeEntries()
        return try await tx.db.queryFirst("SELECT timeline_seq, timeline_head FROM users WHERE id = ?", userID).map {
            TimelineHead(userID: userID, sequence: try $0.int("timeline_seq"), hash: try $0.string("timeline_head"))
        }
    }

    /// Entries in order; `after` pages forwards by sequence.
    public func entries(of userID: UserID, after: Int = 0, limit: Int = 10_000) async throws -> [TimelineEntry] {
        try await writeEntries()
        return try await tx.db.query(
            "SELECT * FROM timeline WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?", userID, after, limit
        ).map { row in
            TimelineEntry(
                sequence: try row.int("seq"), userID: try row.id("user_id"), at: try row.date("at"),
                kind: try row.string("kind"), summary: try row.string("summary"),
                detail: try row.string("detail"), previousHash: try row.string("prev_hash"),
                hash: try row.string("hash"))
        }
    }
}

extension StoreTransaction {
    /// Entries a transaction keeps before writing them (many rows per statement).
    static let bufferedTimelineEntries = 256

    /// The seal of a timeline head: HMAC-SHA256 of "person:sequence:hash" keyed with `key`, hex.
    public static func timelineSeal(key: [UInt8], userID: UserID, sequence: Int, hash: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Array("timeline:\(userID):\(sequence):\(hash)".utf8), using: SymmetricKey(data: key))
        return Array(mac).map { String(format: "%02x", $0) }.joined()
    }

    /// The hash that chains an entry to the one before: hex SHA-256 of its canonical text.
    public static func timelineHash(
        previousHash: String, sequence: Int, userID: UserID, at: Date, kind: String, summary: String, detail: String
    ) -> String {
        let text = TimelineEntry.canonicalText(
            previousHash: previousHash, sequence: sequence, userID: userID, atMilliseconds: at.milliseconds,
            kind: kind, summary: summary, detail: detail)
        return SHA256Hex.of(text)
    }
}
