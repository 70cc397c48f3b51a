import Foundation

extension StoreTransaction {
    /// Fixed-window hit counts: the limits on codes, messages and call-in PINs.
    public struct RateLimits: Sendable {
        let tx: StoreTransaction
    }

    public var rateLimits: RateLimits { RateLimits(tx: self) }
}

extension StoreTransaction.RateLimits {
    /// Counts one hit in a fixed window; returns the hits in the current window including this one.
    public func hit(bucket: String, now: Date, window: TimeInterval) async throws -> Int {
        let windowStart = Int64((now.timeIntervalSince1970 / window).rounded(.down) * window * 1000)
        let row = try await tx.db.queryFirst(
            """
            INSERT INTO rate_limits (bucket, window_start, hits) VALUES (?, ?, 1)
            ON CONFLICT (bucket) DO UPDATE SET
                hits = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.hits + 1 ELSE 1 END,
                window_start = excluded.window_start
            RETURNING hits
            """, bucket, windowStart)
        return try row?.int("hits") ?? 1
    }

    /// The hits counted in `bucket`'s current window, without counting one.
    public func count(bucket: String, now: Date, window: TimeInterval) async throws -> Int {
        let windowStart = Int64((now.timeIntervalSince1970 / window).rounded(.down) * window * 1000)
        return try await tx.db.queryFirst(
            "SELECT hits FROM rate_limits WHERE bucket = ? AND window_start = ?", bucket, windowStart)?.int("hits") ?? 0
    }

    /// Gives back one hit reserved by ``hit(bucket:now:window:)`` in the same window
    /// (the action it held a place for did not happen); a window that has moved on is left alone.
    public func release(bucket: String, now: Date, window: TimeInterval) async throws {
        let windowStart = Int64((now.timeIntervalSince1970 / window).rounded(.down) * window * 1000)
        try await tx.db.execute(
            "UPDATE rate_limits SET hits = hits - 1 WHERE bucket = ? AND window_start = ? AND hits > 0", bucket, windowStart)
    }
}
