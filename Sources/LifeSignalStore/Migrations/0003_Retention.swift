extension Migration {
    /// Indexes for the retention service's batches: old notifications by age, expired codes,
    /// stale rate-limit windows — so a batch never scans a whole table.
    static let m0003Retention = Migration(
        name: "retention",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE INDEX notifications_created ON notifications (created_at);
        CREATE INDEX sign_in_codes_expires ON sign_in_codes (expires_at);
        CREATE INDEX rate_limits_window ON rate_limits (window_start);
        """
}
