extension Migration {
    /// Accounts, sessions, check-ins, links, pings, incidents, notifications, channels,
    /// deliveries (the outbox) and the hash-chained timeline.
    ///
    /// Times are integer milliseconds; ids are lowercase UUID text; booleans are 0/1.
    /// The engine finds due work through partial indexes on `next_action_at`,
    /// `next_notify_at` and `next_attempt_at`, never by scanning users.
    static let m0001Initial = Migration(
        name: "initial",
        sqlite: initialSchema(blob: "BLOB"),
        postgres: initialSchema(blob: "BYTEA"))

    // The two dialects share this schema except for the binary column type.
    private static func initialSchema(blob: String) -> String {
        """
        CREATE TABLE users (
            id TEXT PRIMARY KEY,
            phone TEXT NOT NULL UNIQUE,
            first_name TEXT NOT NULL DEFAULT '',
            last_name TEXT NOT NULL DEFAULT '',
            emergency_note TEXT NOT NULL DEFAULT '',
            schedule_kind TEXT NOT NULL DEFAULT 'interval',
            interval_seconds BIGINT NOT NULL DEFAULT 86400,
            daily_minute BIGINT NOT NULL DEFAULT 0,
            time_zone TEXT NOT NULL DEFAULT 'UTC',
            reminders TEXT NOT NULL DEFAULT '30m',
            grace_minutes BIGINT NOT NULL DEFAULT 10,
            last_check_in_at BIGINT,
            paused_until BIGINT,
            created_at BIGINT NOT NULL,
            contact_code TEXT NOT NULL UNIQUE,
            avatar \(blob),
            avatar_type TEXT,
            onboarded BIGINT NOT NULL DEFAULT 0,
            deadline_at BIGINT NOT NULL,
            escalation_step BIGINT NOT NULL DEFAULT 0,
            next_action_at BIGINT,
            lease_owner TEXT,
            lease_until BIGINT,
            timeline_seq BIGINT NOT NULL DEFAULT 0,
            timeline_head TEXT NOT NULL
        );
        CREATE INDEX users_next_action ON users (next_action_at) WHERE next_action_at IS NOT NULL;
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            created_at BIGINT NOT NULL,
            last_used_at BIGINT NOT NULL
        );
        CREATE INDEX sessions_user ON sessions (user_id);
        CREATE TABLE sign_in_codes (
            phone TEXT NOT NULL,
            purpose TEXT NOT NULL,
            user_id TEXT,
            code_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            attempts BIGINT NOT NULL DEFAULT 0,
            last_sent_at BIGINT NOT NULL,
            PRIMARY KEY (phone, purpose)
        );
        CREATE TABLE rate_limits (
            bucket TEXT PRIMARY KEY,
            window_start BIGINT NOT NULL,
            hits BIGINT NOT NULL
        );
        CREATE TABLE check_ins (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            id TEXT NOT NULL,
            at BIGINT NOT NULL,
            client_at BIGINT,
            source TEXT NOT NULL,
            recorded_by TEXT,
            PRIMARY KEY (user_id, id)
        );
        CREATE INDEX check_ins_user_at ON check_ins (user_id, at);
        CREATE TABLE links (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            contact_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            roles BIGINT NOT NULL CHECK (roles BETWEEN 1 AND 3),
            added_at BIGINT NOT NULL,
            PRIMARY KEY (user_id, contact_id),
            CHECK (user_id <> contact_id)
        );
        CREATE INDEX links_contact ON links (contact_id);
        CREATE TABLE pings (
            id TEXT PRIMARY KEY,
            from_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            to_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            sent_at BIGINT NOT NULL,
            answered_at BIGINT,
            cleared_at BIGINT
        );
        CREATE UNIQUE INDEX pings_pending ON pings (from_user_id, to_user_id)
            WHERE answered_at IS NULL AND cleared_at IS NULL;
        CREATE INDEX pings_to ON pings (to_user_id);
        CREATE TABLE incidents (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            opened_at BIGINT NOT NULL,
            due_at BIGINT NOT NULL,
            late BIGINT NOT NULL DEFAULT 0,
            acknowledged_by TEXT,
            acknowledged_at BIGINT,
            claim_expires_at BIGINT,
            notify_count BIGINT NOT NULL DEFAULT 0,
            next_notify_at BIGINT,
            resolved_at BIGINT,
            resolved_by TEXT,
            resolution TEXT,
            lease_owner TEXT,
            lease_until BIGINT
        );
        CREATE UNIQUE INDEX incidents_open ON incidents (user_id, kind) WHERE resolved_at IS NULL;
        CREATE INDEX incidents_next_notify ON incidents (next_notify_at)
            WHERE resolved_at IS NULL AND next_notify_at IS NOT NULL;
        CREATE INDEX incidents_claims ON incidents (claim_expires_at)
            WHERE resolved_at IS NULL AND claim_expires_at IS NOT NULL;
        CREATE TABLE incident_recipients (
            incident_id TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            first_notified_at BIGINT NOT NULL,
            PRIMARY KEY (incident_id, user_id)
        );
        CREATE TABLE notifications (
            id TEXT PRIMARY KEY,
            recipient_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            type TEXT NOT NULL,
            subject_user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
            incident_id TEXT,
            title TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            read_at BIGINT,
            step_key TEXT UNIQUE
        );
        CREATE INDEX notifications_recipient ON notifications (recipient_id, created_at);
        CREATE TABLE channels (
            id TEXT PRIMARY KEY,
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            address TEXT NOT NULL,
            priority BIGINT NOT NULL,
            categories TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            UNIQUE (user_id, kind, address)
        );
        CREATE TABLE deliveries (
            id TEXT PRIMARY KEY,
            notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
            recipient_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            channel TEXT NOT NULL,
            address TEXT NOT NULL,
            status TEXT NOT NULL,
            reason TEXT,
            attempts BIGINT NOT NULL DEFAULT 0,
            provider_id TEXT,
            fallback_rank BIGINT NOT NULL DEFAULT 0,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            next_attempt_at BIGINT,
            lease_owner TEXT,
            lease_until BIGINT
        );
        CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
        CREATE INDEX deliveries_notification ON deliveries (notification_id);
        CREATE INDEX deliveries_provider ON deliveries (provider_id) WHERE provider_id IS NOT NULL;
        CREATE TABLE timeline (
            user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            seq BIGINT NOT NULL,
            at BIGINT NOT NULL,
            kind TEXT NOT NULL,
            summary TEXT NOT NULL,
            detail TEXT NOT NULL,
            prev_hash TEXT NOT NULL,
            hash TEXT NOT NULL,
            PRIMARY KEY (user_id, seq)
        );
        CREATE TABLE engine_heartbeats (
            instance TEXT PRIMARY KEY,
            last_pass_at BIGINT NOT NULL,
            last_pass_micros BIGINT NOT NULL
        );
        """
    }
}
