extension Migration {
    /// Dated pauses: `users.pauses` holds her pauses as JSON (`[{"id","from","until","setBy",
    /// "setByName","setAt"}]`, times in milliseconds), null when she has none. They replace the single
    /// open pause of `users.paused_until`: a pause still holding (or one her period still starts
    /// from) becomes the first entry, from her last check-in to its end, set by herself; the
    /// old column is then left null and no longer read.
    static let m0023Pauses = Migration(
        name: "pauses",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN pauses TEXT;
        UPDATE users SET pauses = '[{"from":' || COALESCE(last_check_in_at, created_at) || ',"id":"' || id
            || '","setAt":' || COALESCE(last_check_in_at, created_at) || ',"setBy":"' || id
            || '","setByName":"","until":' || paused_until || '}]'
        WHERE paused_until IS NOT NULL AND paused_until > COALESCE(last_check_in_at, created_at);
        UPDATE users SET paused_until = NULL;
        """
}
