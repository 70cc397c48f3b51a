extension Migration {
    /// Quiet hours: `users.quiet_hours` holds `HH:MM-HH:MM` (start and end on her wall clock, in
    /// `users.zone`), null when off — as every existing person is.
    static let m0022QuietHours = Migration(
        name: "quiet_hours",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN quiet_hours TEXT;
        """
}
