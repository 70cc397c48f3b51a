extension Migration {
    /// Each person's own time zone, for the times they read (their daily deadline keeps its own
    /// in `time_zone`). People on a daily deadline start in that deadline's zone; others in UTC
    /// until their browser or device says.
    static let m0005PersonTimeZone = Migration(
        name: "person_time_zone",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN zone TEXT NOT NULL DEFAULT 'UTC';
        UPDATE users SET zone = time_zone WHERE schedule_kind = 'daily';
        """
}
