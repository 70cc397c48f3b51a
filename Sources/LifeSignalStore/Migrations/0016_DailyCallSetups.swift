extension Migration {
    /// Daily calls set up by family. A row is one request ("call Mum every day at 09:00"):
    /// who asked, her name and number as given, the call's time and zone, and where her
    /// consent stands (`pending` until she presses 1 or 2 on a consent call, or three go
    /// unanswered). `person_id` is the account made for her, kept null once it is gone (she
    /// said no), so the asker still sees what became of the request. `next_call_at` is when the
    /// next consent call rings, indexed for the engine; null once there is nothing to ring.
    static let m0016DailyCallSetups = Migration(
        name: "daily_call_setups",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE daily_call_setups (
            id TEXT PRIMARY KEY,
            person_id TEXT REFERENCES users (id) ON DELETE SET NULL,
            requested_by TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            phone TEXT NOT NULL,
            time TEXT NOT NULL,
            time_zone TEXT NOT NULL,
            status TEXT NOT NULL,
            tries BIGINT NOT NULL DEFAULT 0,
            next_call_at BIGINT,
            created_at BIGINT NOT NULL,
            answered_at BIGINT
        );
        CREATE INDEX daily_call_setups_due ON daily_call_setups (next_call_at) WHERE next_call_at IS NOT NULL;
        CREATE INDEX daily_call_setups_asker ON daily_call_setups (requested_by, created_at);
        CREATE INDEX daily_call_setups_person ON daily_call_setups (person_id);
        """
}
