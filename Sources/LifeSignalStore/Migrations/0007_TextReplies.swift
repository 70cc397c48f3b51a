extension Migration {
    /// What LifeSignal knows about a phone number that texts it back: whether it said STOP
    /// (carrier rules: nothing is texted to it until it says START), an SOS waiting for the
    /// confirming second text (and which text asked), the alerts last listed to it by number,
    /// and when it was last sent the help text (at most once an hour).
    static let m0007TextReplies = Migration(
        name: "text_replies",
        sqlite: schema, postgres: schema)

    private static let schema = """
        CREATE TABLE phone_numbers (
            address TEXT PRIMARY KEY,
            opted_out_at BIGINT,
            sos_pending_until BIGINT,
            sos_message TEXT,
            choice_until BIGINT,
            choices TEXT,
            help_sent_at BIGINT
        );
        """
}
