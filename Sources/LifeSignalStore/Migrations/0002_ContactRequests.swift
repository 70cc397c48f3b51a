extension Migration {
    /// Consent: links are made by accepted requests. Links that existed before consent are
    /// kept, and both people are told once what their link grants (`consent_notice_due`).
    /// A recipient deleting a notification hides it (`hidden_at`): its deliveries stay the
    /// proof the person it is about sees. API tokens get a scope (tokens made before keep
    /// `full`, so integrations keep working) and an optional expiry. Text, call and e-mail
    /// channels must be proved with a code before they receive anything (channels registered
    /// before are taken as proved: their people rely on them).
    static let m0002ContactRequests = Migration(
        name: "contact_requests", sqlite: contactRequestsSchema, postgres: contactRequestsSchema)

    private static let contactRequestsSchema = """
        CREATE TABLE contact_requests (
            id TEXT PRIMARY KEY,
            from_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            to_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            roles BIGINT NOT NULL CHECK (roles BETWEEN 1 AND 3),
            state TEXT NOT NULL CHECK (state IN ('pending', 'accepted', 'declined', 'cancelled')),
            created_at BIGINT NOT NULL,
            decided_at BIGINT,
            CHECK (from_user_id <> to_user_id)
        );
        CREATE UNIQUE INDEX contact_requests_pending ON contact_requests (from_user_id, to_user_id)
            WHERE state = 'pending';
        CREATE INDEX contact_requests_to ON contact_requests (to_user_id, created_at);
        CREATE INDEX contact_requests_from ON contact_requests (from_user_id, created_at);
        ALTER TABLE links ADD COLUMN consent_notice_due BIGINT NOT NULL DEFAULT 0;
        UPDATE links SET consent_notice_due = 1;
        CREATE INDEX links_consent_notice ON links (user_id) WHERE consent_notice_due = 1;
        ALTER TABLE notifications ADD COLUMN hidden_at BIGINT;
        ALTER TABLE sessions ADD COLUMN scope TEXT NOT NULL DEFAULT 'full';
        ALTER TABLE sessions ADD COLUMN expires_at BIGINT;
        ALTER TABLE channels ADD COLUMN verified_at BIGINT;
        ALTER TABLE channels ADD COLUMN verify_code_hash TEXT;
        ALTER TABLE channels ADD COLUMN verify_expires_at BIGINT;
        ALTER TABLE channels ADD COLUMN verify_attempts BIGINT NOT NULL DEFAULT 0;
        UPDATE channels SET verified_at = created_at
        """
}
