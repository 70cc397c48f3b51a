extension Migration {
    /// Server instances watching each other: each run of `lifesignal serve` writes a heartbeat;
    /// a live instance that finds another silent releases its delivery leases (once:
    /// `taken_over_at`). `id` is the run's delivery-lease owner (`<instance id>#<boot id>`).
    ///
    /// `deliveries.sending_since`: when the attempt now going on (or cut off) was handed to a
    /// provider; cleared when its outcome is recorded. A delivery taken over with it set may
    /// have reached its recipient already, and its resend says so.
    static let m0010Instances = Migration(
        name: "instances",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE instances (
            id TEXT PRIMARY KEY,
            instance_id TEXT NOT NULL,
            name TEXT NOT NULL,
            started_at BIGINT NOT NULL,
            last_seen BIGINT NOT NULL,
            taken_over_at BIGINT
        );
        ALTER TABLE deliveries ADD COLUMN sending_since BIGINT;
        """
}
