extension Migration {
    /// Each person's language (BCP 47), for every message to them. NULL until they, their
    /// browser or their device say: they read English until then.
    static let m0011PersonLanguage = Migration(
        name: "person_language",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN language TEXT;
        """
}
