extension Migration {
    /// `deliveries.fallback_next`: the targets a failed delivery falls back to, in order, as
    /// chosen when the notification was sent (a JSON list of `{"channel","address"}`), so a
    /// fallback follows the plan made then instead of a list computed again at failure time.
    /// Null for a delivery sent on every channel at once (`fallback_rank` -1) and for rows
    /// queued before this migration (those still fall back by rank).
    static let m0012FallbackNext = Migration(
        name: "fallback_next",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE deliveries ADD COLUMN fallback_next TEXT;
        """
}
