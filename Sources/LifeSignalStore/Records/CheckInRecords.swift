import Foundation
import LifeSignalModels

/// What ``StoreTransaction/CheckIns/record(_:timelineKind:summary:detail:deadline:escalationStep:nextActionAt:)``
/// did, and what it read for the steps after it when it ran as one statement.
public struct CheckInWrite: Sendable, Equatable {
    /// False: this person already sent this id, and nothing was written.
    public var inserted: Bool
    /// Whether she has running plans, as of the write; nil when not read (read them yourself).
    public var hasRunningPlans: Bool?
    /// Whether she has open incidents, as of the write; nil when not read.
    public var hasOpenIncidents: Bool?
    /// Her responders (`responderIDs(of:)`), as of the write; nil when not read.
    public var responderIDs: [UserID]?

    public init(inserted: Bool, hasRunningPlans: Bool? = nil, hasOpenIncidents: Bool? = nil, responderIDs: [UserID]? = nil) {
        self.inserted = inserted
        self.hasRunningPlans = hasRunningPlans
        self.hasOpenIncidents = hasOpenIncidents
        self.responderIDs = responderIDs
    }
}

extension StoreTransaction {
    /// Check-ins: the row each one writes (with its timeline entry and the person's row, in
    /// one statement on PostgreSQL) and the person's history of them.
    public struct CheckIns: Sendable {
        let tx: StoreTransaction
    }

    public var checkIns: CheckIns { CheckIns(tx: self) }
}

extension StoreTransaction.CheckIns {
    /// A check-in's writes, once per id: the check-in row and, unless it was a repeat, its
    /// timeline entry (chained to the head this transaction read with the person's row) and the
    /// person's row (`tx.people.recordCheckIn(of:…)`: the check-in's columns and the new head).
    ///
    /// On PostgreSQL (unless its URL has `check_in_statement=off`) this is one statement, its
    /// writes gated on the check-in's insert, which also answers whether she has running plans
    /// and open incidents and who her responders are, so the usual check-in needs no further
    /// read; the entry and its hash are the ones `timeline.append` makes. Elsewhere it is the
    /// statements one by one, and nothing is read.
    public func record(
        _ checkIn: CheckIn, timelineKind: String, summary: String, detail: String, deadline: Date, escalationStep: Int,
        nextActionAt: Date?
    ) async throws -> CheckInWrite {
        let userID = checkIn.userID
        guard tx.db.writesCheckInAsOneStatement else {
            guard try await insert(checkIn) else { return CheckInWrite(inserted: false) }
            try await tx.timeline.append(userID, at: checkIn.at, kind: timelineKind, summary: summary, detail: detail)
            try await tx.people.recordCheckIn(
                of: userID, at: checkIn.at, deadline: deadline, escalationStep: escalationStep, nextActionAt: nextActionAt)
            return CheckInWrite(inserted: true)
        }
        let entry = try await tx.timeline.nextEntry(userID, at: checkIn.at, kind: timelineKind, summary: summary, detail: detail)
        let seal = tx.timelineKey.map { StoreTransaction.timelineSeal(key: $0, userID: userID, sequence: entry.sequence, hash: entry.hash) }
        let binds: [SQLValue] = [
            userID.sqlValue, checkIn.id.sqlValue, checkIn.at.sqlValue, checkIn.clientAt.sqlValue,
            checkIn.source.rawValue.sqlValue, checkIn.recordedBy.sqlValue, checkIn.device.sqlValue,
            checkIn.at.sqlValue, deadline.sqlValue, nextActionAt.sqlValue, escalationStep.sqlValue,
            entry.sequence.sqlValue, entry.hash.sqlValue, seal.sqlValue, userID.sqlValue,
            userID.sqlValue, entry.sequence.sqlValue, entry.at.sqlValue, entry.kind.sqlValue, entry.summary.sqlValue,
            entry.detail.sqlValue, entry.previousHash.sqlValue, entry.hash.sqlValue,
            userID.sqlValue, userID.sqlValue, userID.sqlValue, ContactRoles.responder.rawValue.sqlValue,
        ]
        guard
            let row = try await tx.db.query(
                """
                WITH inserted AS (
                    INSERT INTO check_ins (user_id, id, at, client_at, source, recorded_by, device)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, id) DO NOTHING RETURNING 1
                ), person AS (
                    UPDATE users SET last_check_in_at = ?, deadline_at = ?, next_action_at = ?, escalation_step = ?,
                        timeline_seq = ?, timeline_head = ?, timeline_seal = ?
                    WHERE id = ? AND EXISTS (SELECT 1 FROM inserted) RETURNING 1
                ), entry AS (
                    INSERT INTO timeline (user_id, seq, at, kind, summary, detail, prev_hash, hash)
                    SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM inserted) RETURNING 1
                )
                SELECT (SELECT COUNT(*) FROM inserted) AS inserted, (SELECT COUNT(*) FROM person) AS person,
                    EXISTS (SELECT 1 FROM plans WHERE user_id = ? AND ended_at IS NULL) AS plans,
                    EXISTS (SELECT 1 FROM incidents WHERE user_id = ? AND resolved_at IS NULL) AS incidents,
                    (SELECT string_agg(contact_id, ',' ORDER BY added_at) FROM links
                        WHERE user_id = ? AND (roles & ?) <> 0) AS responders
                """, binds
            ).first
        else { throw StoreError.sql("a check-in's statement answered no row") }
        guard try row.int("inserted") > 0 else { return CheckInWrite(inserted: false) }
        if try row.int("person") == 0 { throw StoreError.constraint("no user \(userID)") }
        tx.timelineBuffer.wrote(userID, TimelineBuffer.Head(sequence: entry.sequence, hash: entry.hash))
        let responders = try row.optionalString("responders").map { list in
            try list.split(separator: ",").map { text -> UserID in
                guard let id = UserID(string: String(text)) else { throw StoreError.decoding("responder \(text) is not a UUID") }
                return id
            }
        }
        return CheckInWrite(
            inserted: true, hasRunningPlans: try row.bool("plans"), hasOpenIncidents: try row.bool("incidents"),
            responderIDs: responders ?? [])
    }
}

extension StoreTransaction.CheckIns {
    /// Records a check-in once: false when this user already sent this id.
    public func insert(_ checkIn: CheckIn) async throws -> Bool {
        try await tx.db.execute(
            """
            INSERT INTO check_ins (user_id, id, at, client_at, source, recorded_by, device)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, id) DO NOTHING
            """,
            checkIn.userID, checkIn.id, checkIn.at, checkIn.clientAt, checkIn.source.rawValue,
            checkIn.recordedBy, checkIn.device) > 0
    }

    public func checkIn(_ id: CheckInID, of userID: UserID) async throws -> CheckIn? {
        try await tx.db.queryFirst("SELECT * FROM check_ins WHERE user_id = ? AND id = ?", userID, id)
            .map(StoreTransaction.decodeCheckIn)
    }

    /// Newest first; `before` pages backwards.
    public func list(of userID: UserID, before: Date?, limit: Int) async throws -> [CheckIn] {
        try await tx.db.query(
            "SELECT * FROM check_ins WHERE user_id = ? AND at < ? ORDER BY at DESC LIMIT ?",
            userID, before ?? Date.distantFuture, limit
        ).map(StoreTransaction.decodeCheckIn)
    }

    /// Oldest first, a page at a time: those after the last page's last check-in. Keyed by
    /// (`at`, `id`), so check-ins recorded in the same instant are neither lost nor repeated
    /// at a page's edge (paging by time alone would).
    public func list(of userID: UserID, after last: CheckIn?, limit: Int) async throws -> [CheckIn] {
        guard let last else {
            return try await tx.db.query(
                "SELECT * FROM check_ins WHERE user_id = ? ORDER BY at, id LIMIT ?", userID, limit
            ).map(StoreTransaction.decodeCheckIn)
        }
        return try await tx.db.query(
            "SELECT * FROM check_ins WHERE user_id = ? AND (at > ? OR (at = ? AND id > ?)) ORDER BY at, id LIMIT ?",
            userID, last.at, last.at, last.id, limit
        ).map(StoreTransaction.decodeCheckIn)
    }
}

extension StoreTransaction {
    static func decodeCheckIn(_ row: SQLRow) throws -> CheckIn {
        CheckIn(
            id: try row.id("id"), userID: try row.id("user_id"), at: try row.date("at"),
            clientAt: try row.optionalDate("client_at"),
            source: try row.value("source", as: CheckIn.Source.self),
            recordedBy: try row.optionalID("recorded_by"), device: try row.optionalString("device"))
    }
}
