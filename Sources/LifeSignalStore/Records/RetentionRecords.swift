import Foundation
import LifeSignalModels

/// What one retention batch deleted.
public struct PrunedRows: Sendable, Equatable {
    public var notifications = 0
    public var deliveries = 0

    public init(notifications: Int = 0, deliveries: Int = 0) {
        self.notifications = notifications
        self.deliveries = deliveries
    }
}

extension StoreTransaction {
    /// Retention: the batches that delete old notifications, expired codes and stale rate-limit
    /// windows.
    public struct Retention: Sendable {
        let tx: StoreTransaction
    }

    public var retention: Retention { Retention(tx: self) }
}

extension StoreTransaction.Retention {
    /// Deletes up to `limit` notifications created before `cutoff`, oldest first, with their
    /// deliveries — but none about an incident still open, and none with a delivery still
    /// queued or leased to a worker. The timeline is never touched (its hash chain is the record).
    public func pruneNotifications(before cutoff: Date, limit: Int) async throws -> PrunedRows {
        // PostgreSQL: rows another transaction holds are skipped, left for the next batch.
        let lock = tx.dialect == .postgres ? " FOR UPDATE OF n SKIP LOCKED" : ""
        let rows = try await tx.db.query(
            """
            SELECT n.id FROM notifications n
            WHERE n.created_at < ?
                AND NOT EXISTS (SELECT 1 FROM incidents i WHERE i.id = n.incident_id AND i.resolved_at IS NULL)
                AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.notification_id = n.id
                    AND (d.status = 'queued' OR d.next_attempt_at IS NOT NULL OR d.lease_owner IS NOT NULL))
            ORDER BY n.created_at LIMIT ?\(lock)
            """, cutoff, limit)
        let ids: [NotificationID] = try rows.map { try $0.id("id") }
        guard !ids.isEmpty else { return PrunedRows() }
        var pruned = PrunedRows()
        for start in stride(from: 0, to: ids.count, by: StoreTransaction.maxClaim) {
            let list = StoreTransaction.inList(Array(ids[start..<min(start + StoreTransaction.maxClaim, ids.count)]))
            // Deliveries first and by name: the cascade would do it, but then not count them.
            pruned.deliveries += try await tx.db.execute("DELETE FROM deliveries WHERE notification_id IN \(list.sql)", list.binds)
            pruned.notifications += try await tx.db.execute("DELETE FROM notifications WHERE id IN \(list.sql)", list.binds)
        }
        return pruned
    }

    /// Deletes up to `limit` sign-in and phone-change codes that expired before `now`.
    public func pruneExpiredCodes(now: Date, limit: Int) async throws -> Int {
        try await tx.db.execute(
            """
            DELETE FROM sign_in_codes WHERE (phone, purpose) IN
                (SELECT phone, purpose FROM sign_in_codes WHERE expires_at < ? LIMIT ?)
            """, now, limit)
    }

    /// Deletes up to `limit` rate-limit rows whose window started before `cutoff` (a window that
    /// old counts for nothing any more).
    public func pruneRateLimits(windowStartedBefore cutoff: Date, limit: Int) async throws -> Int {
        try await tx.db.execute(
            "DELETE FROM rate_limits WHERE bucket IN (SELECT bucket FROM rate_limits WHERE window_start < ? LIMIT ?)",
            cutoff, limit)
    }
}
