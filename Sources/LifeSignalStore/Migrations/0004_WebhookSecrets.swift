extension Migration {
    /// A webhook channel's own signing secret, generated when it is registered and shown once to
    /// its owner. Channels registered before keep the server's secret (NULL here).
    static let m0004WebhookSecrets = Migration(
        name: "webhook_secrets",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE channels ADD COLUMN signing_secret TEXT;
        """
}
