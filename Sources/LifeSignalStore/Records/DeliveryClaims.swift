import Foundation
import LifeSignalModels

/// The outbox's leases: claims, hand-backs and the marks of sends under way.
extension StoreTransaction.Deliveries {
    /// Gives back to the poll every delivery leased to an earlier run of this instance: owners
    /// that start with `stem` (host and port) but are not `owner` (this run's boot). Their
    /// process died; waiting out their leases would only delay alerts.
    @discardableResult
    public func releaseDeadLeases(stem: String, except owner: String) async throws -> Int {
        try await tx.db.execute(
            """
            UPDATE deliveries SET lease_owner = NULL, lease_until = NULL
            WHERE lease_owner IS NOT NULL AND substr(lease_owner, 1, CAST(? AS INTEGER)) = ? AND lease_owner <> ?
            """, stem.count, stem, owner)
    }

    /// Notes that the attempts of these deliveries, leased to `owner`, are being handed to their
    /// providers (`sending_since`, kept from an earlier unrecorded attempt if there was one):
    /// whoever takes one over after `owner` dies knows it may have gone out.
    public func markSending(_ ids: [DeliveryID], owner: String, at: Date) async throws {
        for start in stride(from: 0, to: ids.count, by: StoreTransaction.maxClaim) {
            let list = StoreTransaction.inList(Array(ids[start..<min(start + StoreTransaction.maxClaim, ids.count)]))
            try await tx.db.execute(
                "UPDATE deliveries SET sending_since = COALESCE(sending_since, ?) WHERE lease_owner = ? AND id IN \(list.sql)",
                [at.sqlValue, owner.sqlValue] + list.binds)
        }
    }

    /// Gives deliveries still leased to `owner` back to the poll (its worker stopped before
    /// taking them); a delivery claimed by another worker meanwhile is left as it is. With
    /// `clearingSendingMarks`, the note that their sends were starting goes too (they were
    /// stopped before the provider was called, and no earlier attempt is in doubt).
    public func release(_ ids: [DeliveryID], leasedTo owner: String, clearingSendingMarks: Bool = false) async throws {
        let marks = clearingSendingMarks ? ", sending_since = NULL" : ""
        for start in stride(from: 0, to: ids.count, by: StoreTransaction.maxClaim) {
            let list = StoreTransaction.inList(Array(ids[start..<min(start + StoreTransaction.maxClaim, ids.count)]))
            try await tx.db.execute(
                "UPDATE deliveries SET lease_owner = NULL, lease_until = NULL\(marks) WHERE lease_owner = ? AND id IN \(list.sql)",
                [owner.sqlValue] + list.binds)
        }
    }

    /// Whether any delivery is due and unclaimed: a worker's poll asks this in a read
    /// transaction, so an idle poll never waits for (or holds) the writer.
    public func hasDue(now: Date) async throws -> Bool {
        try await tx.db.queryFirst("SELECT 1 AS due \(StoreTransaction.dueAndFree) LIMIT 1", now, now) != nil
    }

    /// Leases up to `limit` due deliveries to `owner`. On PostgreSQL rows locked by another
    /// instance are skipped; a lease that expired (its owner died) is taken over.
    ///
    /// A paced channel (a key of `paced`) gives at most its count, taken by their stored
    /// `pace_rank` (lowest first: see ``QueuedDelivery/paceRank``), then oldest first: when the
    /// provider's rate is short, what matters most goes first. The index `deliveries_paced`
    /// gives them in that order, so a claim reads its first rows instead of sorting every due
    /// delivery. Its deliveries do not count towards `limit`.
    public func claimDue(
        now: Date, limit: Int, owner: String, leaseUntil: Date, paced: [ChannelKind: Int] = [:]
    ) async throws -> [DeliveryToRecord] {
        var ids: [DeliveryID] = []
        // By due time alone, which the partial index gives in order: a tie-break (by id) would
        // sort every delivery of a burst due at the same instant on each claim (100,000 due at
        // once: 45 ms a claim on SQLite instead of 0.04 ms).
        if paced.isEmpty {
            let rows = try await tx.db.query(
                "SELECT id \(StoreTransaction.dueAndFree) ORDER BY next_attempt_at LIMIT ?\(tx.skipLocked)", now, now,
                min(limit, StoreTransaction.maxClaim))
            ids = try rows.map { try $0.id("id") }
        } else {
            let list = StoreTransaction.inList(paced.keys.map(\.rawValue).sorted())
            ids = try await tx.db.query(
                "SELECT id \(StoreTransaction.dueAndFree) AND channel NOT IN \(list.sql) ORDER BY next_attempt_at LIMIT ?\(tx.skipLocked)",
                [now.sqlValue, now.sqlValue] + list.binds + [min(limit, StoreTransaction.maxClaim).sqlValue]
            ).map { try $0.id("id") }
            for (channel, count) in paced.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where count > 0 {
                ids += try await tx.db.query(
                    "SELECT id \(StoreTransaction.dueAndFree) AND channel = ? ORDER BY pace_rank, next_attempt_at LIMIT ?\(tx.skipLocked)",
                    now, now, channel.rawValue, min(count, StoreTransaction.maxClaim)
                ).map { try $0.id("id") }
            }
        }
        guard !ids.isEmpty else { return [] }
        let list = StoreTransaction.inList(ids)
        try await tx.db.execute(
            "UPDATE deliveries SET lease_owner = ?, lease_until = ? WHERE id IN \(list.sql)",
            [owner.sqlValue, leaseUntil.sqlValue] + list.binds)
        let claimed = try await deliveriesToRecord(ids)
        return ids.compactMap { claimed[$0] }
    }
}

extension StoreTransaction {
    /// Deliveries due at the bound time (first bind) whose lease is free or ended (second bind).
    fileprivate static let dueAndFree = """
        FROM deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ?
        AND (lease_until IS NULL OR lease_until < ?)
        """
}
