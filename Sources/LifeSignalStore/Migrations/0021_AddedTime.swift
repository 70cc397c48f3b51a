extension Migration {
    /// "I'm OK, give me 2 more hours": the deadline a person moved later (`added_from`, as her
    /// rhythm gave it) and where to (`added_until`). NULL when she has not; it stops applying
    /// by itself once her rhythm gives another deadline.
    static let m0021AddedTime = Migration(
        name: "added_time",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN added_from BIGINT;
        ALTER TABLE users ADD COLUMN added_until BIGINT;
        """
}
