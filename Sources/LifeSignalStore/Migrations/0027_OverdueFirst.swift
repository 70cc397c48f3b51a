extension Migration {
    /// `users_overdue`: the people whose next step is at or past their deadline (the last
    /// call, the alert to their responders), in due order. When the engine is behind — the
    /// morning rush, where one minute holds 09:00's deadlines and 09:30's reminders — it claims
    /// them before anyone whose next step is only a reminder, reading this index first; the
    /// rest still come from `users_next_action`.
    static let m0027OverdueFirst = Migration(
        name: "overdue_first",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE INDEX users_overdue ON users (next_action_at) WHERE next_action_at IS NOT NULL AND next_action_at >= deadline_at;
        """
}
