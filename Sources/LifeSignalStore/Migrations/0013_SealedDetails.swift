extension Migration {
    /// Sealed details: what the first person at the door needs, kept apart from `users` so no
    /// read of a person's account can carry them by accident. Removed with the account.
    static let m0013SealedDetails = Migration(
        name: "sealed_details",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE sealed_details (
            user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            details TEXT NOT NULL,
            updated_at BIGINT NOT NULL
        );
        """
}
