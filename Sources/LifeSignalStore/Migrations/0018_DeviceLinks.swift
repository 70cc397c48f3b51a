extension Migration {
    /// Device check-in links. A row is one link of a person's: its name, the SHA-256 of its
    /// secret (never the secret), whether its check-in may end an open missed check-in, and
    /// when it last counted (`last_used_at`: calls within a minute of it are one check-in).
    /// Revoking deletes the row, so a revoked link and one that never existed look the same.
    /// `check_ins.device` names the link a check-in came from; `incident_activity` holds a
    /// link's calls during an open missed check-in that did not end it (shown to responders,
    /// gone with the incident).
    static let m0018DeviceLinks = Migration(
        name: "device_links",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE device_links (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            secret_hash TEXT NOT NULL UNIQUE,
            resolves_alerts BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT
        );
        CREATE INDEX device_links_user ON device_links (user_id, created_at);
        ALTER TABLE check_ins ADD COLUMN device TEXT;
        CREATE TABLE incident_activity (
            incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
            at BIGINT NOT NULL,
            device TEXT NOT NULL
        );
        CREATE INDEX incident_activity_incident ON incident_activity (incident_id, at);
        """
}
