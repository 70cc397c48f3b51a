extension Migration {
    /// An optional PIN for calling in. `users.call_in_pin` holds a salted hash of the four
    /// digits (never the digits); null, for everyone until they choose one, means a call from
    /// her number is enough, as before.
    static let m0017CallInPin = Migration(
        name: "call_in_pin",
        sqlite: schema, postgres: schema)

    private static let schema = """
        ALTER TABLE users ADD COLUMN call_in_pin TEXT;
        """
}
