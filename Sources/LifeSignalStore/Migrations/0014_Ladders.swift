extension Migration {
    /// Escalation ladders. `ladders` holds a person's steps as she saved them (a JSON list of
    /// `{"responders","waitMinutes"}`), with a version for optimistic saves; a person without a
    /// row has the default ladder (everyone at once), so existing people change nothing.
    /// `incidents.ladder` is the ladder an incident climbs, snapshotted when it opened, with how
    /// far it has climbed (null for incidents opened before: everyone at once, as then).
    /// `links.key_holder` marks, on the person's side of a link, the responder who has her key.
    static let m0014Ladders = Migration(
        name: "ladders",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE ladders (
            user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            steps TEXT NOT NULL,
            sos_climbs BIGINT NOT NULL DEFAULT 0,
            version BIGINT NOT NULL,
            updated_at BIGINT NOT NULL
        );
        ALTER TABLE incidents ADD COLUMN ladder TEXT;
        ALTER TABLE links ADD COLUMN key_holder BIGINT NOT NULL DEFAULT 0;
        """
}
