/// A queued delivery claimed from the outbox, with how often it has been tried before.
public struct OutboxItem: Sendable, Hashable {
    public var message: OutgoingMessage
    /// Attempts already made on this delivery before this claim; 0 for a fresh one.
    public var attempts: Int

    public init(message: OutgoingMessage, attempts: Int) {
        self.message = message
        self.attempts = attempts
    }
}
