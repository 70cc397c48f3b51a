extension Migration {
    /// Daily schedules with several times. A person whose rhythm is `daily` keeps the first
    /// time in `daily_minute` and the zone in `time_zone`, as before; `users.daily_times` holds
    /// every time when there is more than one or one is not every day: a JSON array of
    /// `{"minute": 570, "weekdays": [1, …, 7]}` (minutes after midnight, ISO weekdays). Null
    /// means one time every day from `daily_minute`, so existing rows keep working unchanged.
    static let m0019DailyTimes = Migration(
        name: "daily_times",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN daily_times TEXT;
        """
}
