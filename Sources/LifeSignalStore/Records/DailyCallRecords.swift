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
    /// Daily calls queued before `queuedBefore` that the outbox has still not handed over,
    /// oldest first. Only due deliveries are looked at (the outbox's own partial index).
    public func stalledDailyCalls(queuedBefore: Date, limit: Int) async throws -> [StalledDailyCall] {
        try await db.query(
            """
            SELECT n.recipient_id AS person, MIN(d.created_at) AS queued_at
            FROM deliveries d JOIN notifications n ON n.id = d.notification_id
            WHERE d.next_attempt_at IS NOT NULL AND d.status = 'queued' AND d.created_at <= ? AND n.type = 'daily_call'
            GROUP BY n.recipient_id ORDER BY queued_at LIMIT ?
            """, queuedBefore, limit
        ).map { StalledDailyCall(person: try $0.id("person"), queuedAt: try $0.date("queued_at")) }
    }

    /// The tries recorded under these step keys, with how their calls ended, oldest first.
    public func dailyCallTries(stepKeys: [String]) async throws -> [DailyCallTry] {
        guard !stepKeys.isEmpty else { return [] }
        let list = Self.inList(stepKeys)
        return try await db.query(
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
