import Foundation
import LifeSignalModels

/// A try of a daily call still waiting in the outbox: whose, and since when.
public struct StalledDailyCall: Hashable, Sendable {
    public var person: UserID
    public var queuedAt: Date
}

/// How one try of a daily call went, from its notification and its delivery.
public struct DailyCallTry: Hashable, Sendable {
    /// The try's step key (`…:call:2`).
    public var stepKey: String
    /// When it was queued: when it was due, give or take the engine's lag.
    public var at: Date
    public var status: Delivery.Status
    public var reason: String?
}

extension StoreTransaction {
    /// Daily calls: the requests to set one up and their consent calls, the tries and how they
    /// ended, and when everyone's calls fall (the pacing of the provider's rate).
    public struct DailyCalls: Sendable {
        let tx: StoreTransaction
    }

    public var dailyCalls: DailyCalls { DailyCalls(tx: self) }
}

extension StoreTransaction.DailyCalls {
    /// Daily calls queued before `queuedBefore` that the outbox has still not handed over,
    /// oldest first. Only due deliveries are looked at (the outbox's own partial index).
    public func stalled(queuedBefore: Date, limit: Int) async throws -> [StalledDailyCall] {
        try await tx.db.query(
            """
            SELECT n.recipient_id AS person, MIN(d.created_at) AS queued_at
            FROM deliveries d JOIN notifications n ON n.id = d.notification_id
            WHERE d.next_attempt_at IS NOT NULL AND d.status = 'queued' AND d.created_at <= ? AND n.type = 'daily_call'
            GROUP BY n.recipient_id ORDER BY queued_at LIMIT ?
            """, queuedBefore, limit
        ).map { StalledDailyCall(person: try $0.id("person"), queuedAt: try $0.date("queued_at")) }
    }

    /// How many tries of daily calls were queued in `[from, to)`: the calls of one minute,
    /// whose spread at the provider's rate is the time the last of them may wait.
    public func queued(from: Date, to: Date) async throws -> Int {
        try await tx.db.queryFirst(
            """
            SELECT COUNT(*) AS n FROM notifications
            WHERE type = 'daily_call' AND created_at >= ? AND created_at < ?
            """, from, to)?.int("n") ?? 0
    }

    /// The tries recorded under these step keys, with how their calls ended, oldest first.
    public func tries(stepKeys: [String]) async throws -> [DailyCallTry] {
        guard !stepKeys.isEmpty else { return [] }
        let list = StoreTransaction.inList(stepKeys)
        return try await tx.db.query(
            """
            SELECT n.step_key, n.created_at, d.status, d.reason
            FROM notifications n JOIN deliveries d ON d.notification_id = n.id
            WHERE n.step_key IN \(list.sql) ORDER BY n.created_at, d.created_at
            """, list.binds
        ).map {
            DailyCallTry(
                stepKey: try $0.string("step_key"), at: try $0.date("created_at"),
                status: try $0.value("status", as: Delivery.Status.self), reason: try $0.optionalString("reason"))
        }
    }
}

extension StoreTransaction.DailyCalls {
    public func insertSetup(_ setup: DailyCallSetup) async throws {
        try await tx.db.execute(
            """
            INSERT INTO daily_call_setups (\(StoreTransaction.setupColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            setup.id, setup.personID, setup.requestedBy, setup.name, setup.phone, setup.time, setup.timeZone,
            setup.status.rawValue, setup.tries, setup.nextCallAt, setup.createdAt, setup.answeredAt)
    }

    /// Saves where a request stands, only if it is still as `expectedTries` and `pending` say
    /// (two engines, or a key pressed while the engine rings again, change it once).
    public func updateSetup(_ setup: DailyCallSetup, expectedTries: Int) async throws -> Bool {
        try await tx.db.execute(
            """
            UPDATE daily_call_setups SET person_id = ?, status = ?, tries = ?, next_call_at = ?, answered_at = ?
            WHERE id = ? AND tries = ? AND status = 'pending'
            """,
            setup.personID, setup.status.rawValue, setup.tries, setup.nextCallAt, setup.answeredAt, setup.id, expectedTries) > 0
    }

    public func setup(_ id: DailyCallSetupID) async throws -> DailyCallSetup? {
        try await tx.db.queryFirst("SELECT \(StoreTransaction.setupColumns) FROM daily_call_setups WHERE id = ?", id)
            .map(StoreTransaction.decodeSetup)
    }

    /// The requests someone made, newest first.
    public func setups(requestedBy asker: UserID) async throws -> [DailyCallSetup] {
        try await tx.db.query(
            "SELECT \(StoreTransaction.setupColumns) FROM daily_call_setups WHERE requested_by = ? ORDER BY created_at DESC, id", asker
        ).map(StoreTransaction.decodeSetup)
    }

    /// The pending request whose account this is, if any.
    public func pendingSetup(person: UserID) async throws -> DailyCallSetup? {
        try await tx.db.queryFirst(
            "SELECT \(StoreTransaction.setupColumns) FROM daily_call_setups WHERE person_id = ? AND status = 'pending'", person
        ).map(StoreTransaction.decodeSetup)
    }

    /// Requests for `phone` by `asker` since `since` (to refuse asking again soon after a no).
    public func setups(phone: String, requestedBy asker: UserID, since: Date) async throws -> [DailyCallSetup] {
        try await tx.db.query(
            "SELECT \(StoreTransaction.setupColumns) FROM daily_call_setups WHERE phone = ? AND requested_by = ? AND created_at >= ?",
            phone, asker, since
        ).map(StoreTransaction.decodeSetup)
    }

    /// Pending requests whose next consent call is due.
    public func dueSetups(now: Date, limit: Int) async throws -> [DailyCallSetup] {
        try await tx.db.query(
            """
            SELECT \(StoreTransaction.setupColumns) FROM daily_call_setups
            WHERE next_call_at IS NOT NULL AND next_call_at <= ? AND status = 'pending' ORDER BY next_call_at LIMIT ?
            """, now, limit
        ).map(StoreTransaction.decodeSetup)
    }
}

extension StoreTransaction {
    static let setupColumns =
        "id, person_id, requested_by, name, phone, time, time_zone, status, tries, next_call_at, created_at, answered_at"

    static func decodeSetup(_ row: SQLRow) throws -> DailyCallSetup {
        DailyCallSetup(
            id: try row.id("id"), personID: try row.optionalID("person_id"), requestedBy: try row.id("requested_by"),
            name: try row.string("name"), phone: try row.string("phone"), time: try row.string("time"),
            timeZone: try row.string("time_zone"), status: try row.value("status", as: DailyCallSetup.Status.self),
            tries: try row.int("tries"), nextCallAt: try row.optionalDate("next_call_at"), createdAt: try row.date("created_at"),
            answeredAt: try row.optionalDate("answered_at"))
    }
}
