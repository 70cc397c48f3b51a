extension Migration {
    /// The timeline head's seal: an HMAC of (person, sequence, head hash) keyed with the
    /// server's key, written whenever the head moves. The chain alone is unkeyed, so whoever
    /// can write the database could rewrite an entry, every hash after it and the head; the
    /// seal is what they cannot recompute without the key.
    static let m0009TimelineSeal = Migration(
        name: "timeline_seal",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN timeline_seal TEXT;
        """
}
