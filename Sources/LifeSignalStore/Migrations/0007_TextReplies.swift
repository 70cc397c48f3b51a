extension Migration {
    /// What LifeSignal knows about a phone number that texts it back: whether it said STOP
    /// (carrier rules: nothing is texted to it until it says START), and an SOS waiting for the
    /// confirming second text, or a choice between several alerts waiting for its number.
    static let m0007TextReplies = Migration(
        version: 7, name: "text_replies",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE phone_numbers (
            address TEXT PRIMARY KEY,
            opted_out_at BIGINT,
            sos_pending_until BIGINT,
            choice_until BIGINT
        );
        """
}
