extension Migration {
    /// Plans ("check on me by 18:00"): one-off deadlines beside the rhythm. A row is one plan:
    /// its headline, its sealed details (NULL once erased), the instruction for responders,
    /// its state, and the engine's bookkeeping (steps taken, `next_action_at`; the engine takes a plan's
    /// steps under its row lock, in one transaction).
    /// An overdue plan's incident names it (`incidents.plan_id`), and one person may have an
    /// incident open for each of her plans at once: the one-open-incident index now counts
    /// (person, kind, plan).
    static let m0020Plans = Migration(
        name: "plans",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE plans (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            title TEXT NOT NULL,
            details TEXT,
            instruction TEXT,
            instruction_at BIGINT,
            tell_responders BIGINT NOT NULL DEFAULT 1,
            state TEXT NOT NULL,
            started_at BIGINT NOT NULL,
            due_at BIGINT NOT NULL,
            ended_at BIGINT,
            extensions BIGINT NOT NULL DEFAULT 0,
            step BIGINT NOT NULL DEFAULT 0,
            next_action_at BIGINT
        );
        CREATE INDEX plans_user ON plans (user_id, started_at);
        CREATE INDEX plans_due ON plans (next_action_at) WHERE next_action_at IS NOT NULL;
        CREATE INDEX plans_ended ON plans (ended_at) WHERE details IS NOT NULL AND ended_at IS NOT NULL;
        ALTER TABLE incidents ADD COLUMN plan_id TEXT;
        DROP INDEX incidents_open;
        CREATE UNIQUE INDEX incidents_open ON incidents (user_id, kind, COALESCE(plan_id, '')) WHERE resolved_at IS NULL;
        """
}
