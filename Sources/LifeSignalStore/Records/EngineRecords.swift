import Foundation
import LifeSignalModels

/// The engine's last successful pass, per instance.
public struct EngineHeartbeat: Sendable, Hashable, Codable {
    public var instance: String
    public var lastPassAt: Date
    public var lastPassMicros: Int

    public init(instance: String, lastPassAt: Date, lastPassMicros: Int) {
        self.instance = instance
        self.lastPassAt = lastPassAt
        self.lastPassMicros = lastPassMicros
    }
}

/// A person as the engine reads them: their account, the deadline their plan runs to, and
/// how far through it they are.
public struct EscalationState: Sendable {
    public var user: User
    public var deadline: Date
    public var step: Int
    public var nextActionAt: Date?
}

extension StoreTransaction {
    /// What the escalation engine claims and locks, and the heartbeats of its passes.
    public struct Engine: Sendable {
        let tx: StoreTransaction
    }

    public var engine: Engine { Engine(tx: self) }
}

extension StoreTransaction.Engine {
    /// Leases users whose next escalation step is due: first those whose step is at or past
    /// their deadline (a last call, an alert to their responders), then the rest (reminders),
    /// each in due order. A reminder never holds up an alert when the engine is behind. The
    /// partial indexes `users_overdue` and `users_next_action` make both range scans of due
    /// rows only, whatever the user count.
    public func claimDueUsers(now: Date, limit: Int, owner: String, leaseUntil: Date) async throws -> [UserID] {
        let limit = min(limit, StoreTransaction.maxClaim)
        let overdue: [UserID] = try await tx.db.query(
            """
            SELECT id FROM users WHERE next_action_at IS NOT NULL AND next_action_at >= deadline_at AND next_action_at <= ?
            AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_action_at LIMIT ?\(tx.skipLocked)
            """, now, now, limit
        ).map { try $0.id("id") }
        try await lease("users", overdue, owner: owner, until: leaseUntil)
        guard overdue.count < limit else { return overdue }
        // Those just leased are past the lease test now; only earlier steps are left.
        let earlier: [UserID] = try await tx.db.query(
            """
            SELECT id FROM users WHERE next_action_at IS NOT NULL AND next_action_at <= ?
            AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_action_at LIMIT ?\(tx.skipLocked)
            """, now, now, limit - overdue.count
        ).map { try $0.id("id") }
        try await lease("users", earlier, owner: owner, until: leaseUntil)
        return overdue + earlier
    }

    /// Leases open incidents whose next repeat is due or whose acknowledgement lapsed.
    public func claimDueIncidents(now: Date, limit: Int, owner: String, leaseUntil: Date) async throws -> [IncidentID] {
        let repeats: [IncidentID] = try await tx.db.query(
            """
            SELECT id FROM incidents WHERE resolved_at IS NULL AND next_notify_at IS NOT NULL AND next_notify_at <= ?
            AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_notify_at LIMIT ?\(tx.skipLocked)
            """, now, now, min(limit, StoreTransaction.maxClaim)
        ).map { try $0.id("id") }
        let claims: [IncidentID] = try await tx.db.query(
            """
            SELECT id FROM incidents WHERE resolved_at IS NULL AND claim_expires_at IS NOT NULL AND claim_expires_at <= ?
            AND (lease_until IS NULL OR lease_until < ?) ORDER BY claim_expires_at LIMIT ?\(tx.skipLocked)
            """, now, now, min(limit, StoreTransaction.maxClaim)
        ).map { try $0.id("id") }
        let ids = Array(Set(repeats + claims))
        try await lease("incidents", ids, owner: owner, until: leaseUntil)
        return ids
    }

    private func lease<Tag>(_ table: String, _ ids: [Identifier<Tag>], owner: String, until: Date) async throws {
        guard !ids.isEmpty else { return }
        let list = StoreTransaction.inList(ids)
        try await tx.db.execute(
            "UPDATE \(table) SET lease_owner = ?, lease_until = ? WHERE id IN \(list.sql)",
            [owner.sqlValue, until.sqlValue] + list.binds)
    }

    public func recordHeartbeat(_ beat: EngineHeartbeat) async throws {
        try await tx.db.execute(
            """
            INSERT INTO engine_heartbeats (instance, last_pass_at, last_pass_micros) VALUES (?, ?, ?)
            ON CONFLICT (instance) DO UPDATE SET last_pass_at = excluded.last_pass_at,
                last_pass_micros = excluded.last_pass_micros
            """, beat.instance, beat.lastPassAt, beat.lastPassMicros)
    }

    public func heartbeats() async throws -> [EngineHeartbeat] {
        try await tx.db.query("SELECT * FROM engine_heartbeats ORDER BY last_pass_at DESC").map {
            EngineHeartbeat(
                instance: try $0.string("instance"), lastPassAt: try $0.date("last_pass_at"),
                lastPassMicros: try $0.int("last_pass_micros"))
        }
    }

    /// How many incidents are open right now.
    public func openIncidentCount() async throws -> Int {
        try await tx.db.queryFirst("SELECT COUNT(*) AS n FROM incidents WHERE resolved_at IS NULL")?.int("n") ?? 0
    }
}
