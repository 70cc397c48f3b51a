extension Migration {
    /// Daily calls. A person whose rhythm is "call me every day at 09:00" has `schedule_kind`
    /// `daily_call`, the time in `daily_minute` and the zone in `time_zone` (as a daily deadline
    /// has), and the rest of the call in `users.daily_call`: a JSON object with `attempts`,
    /// `retryMinutes`, `weekdays` (ISO numbers) and `number` (absent: her own phone). Null for
    /// every other rhythm, so existing people change nothing.
    static let m0015DailyCalls = Migration(
        name: "daily_calls",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN daily_call TEXT;
        """
}
