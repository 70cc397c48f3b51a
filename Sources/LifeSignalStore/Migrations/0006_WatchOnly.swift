extension Migration {
    /// "I only watch over others": no rhythm, no reminders, never overdue.
    static let m0006WatchOnly = Migration(
        name: "watch_only",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN watch_only BIGINT NOT NULL DEFAULT 0;
        """
}
