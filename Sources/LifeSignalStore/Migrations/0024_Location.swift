extension Migration {
    /// Location, shared only during an alert. `users.share_location` is her switch (0 off, 1 at
    /// her SOS and plans, 2 at her check-ins too). `locations` holds her captures: a fix
    /// (degrees × 10⁷ and metres, as integers) or, with no coordinates, a capture that failed.
    /// A capture taken while an alert about her is open belongs to it (`incident_id`) and is
    /// deleted 30 days after it ends; outside an alert only her latest is kept, 7 days.
    /// `location_views` is each responder's first look during one alert: the one timeline entry.
    /// Everything goes with her account.
    static let m0024Location = Migration(
        name: "location",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN share_location BIGINT NOT NULL DEFAULT 0;
        CREATE TABLE locations (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            incident_id TEXT,
            latitude_e7 BIGINT,
            longitude_e7 BIGINT,
            accuracy_m BIGINT,
            source TEXT NOT NULL,
            captured_at BIGINT NOT NULL,
            recorded_at BIGINT NOT NULL
        );
        CREATE INDEX locations_user ON locations (user_id, captured_at);
        CREATE INDEX locations_loose ON locations (recorded_at) WHERE incident_id IS NULL;
        CREATE INDEX locations_incident ON locations (incident_id) WHERE incident_id IS NOT NULL;
        CREATE TABLE location_views (
            incident_id TEXT NOT NULL,
            viewer_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            seen_at BIGINT NOT NULL,
            PRIMARY KEY (incident_id, viewer_id)
        );
        """
}
