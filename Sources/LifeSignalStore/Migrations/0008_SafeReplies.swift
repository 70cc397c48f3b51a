extension Migration {
    /// A text `SAFE` waiting for the confirming second one that ends the sender's SOS (and
    /// which text asked, so the same text delivered twice does not confirm itself).
    static let m0008SafeReplies = Migration(
        name: "safe_replies",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE phone_numbers ADD COLUMN safe_pending_until BIGINT;
        ALTER TABLE phone_numbers ADD COLUMN safe_message TEXT;
        """
}
