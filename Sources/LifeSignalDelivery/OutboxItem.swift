import Foundation

/// A queued delivery claimed from the outbox, with how often it has been tried before.
public struct OutboxItem: Sendable, Hashable {
    public var message: OutgoingMessage
    /// Attempts already made on this delivery before this claim; 0 for a fresh one.
    public var attempts: Int
    /// When this delivery's lease ends, when it differs from the claim's (a delivery handed
    /// over leased at its creation); nil: the lease the claim asked for.
    public var leaseUntil: Date?

    public init(message: OutgoingMessage, attempts: Int, leaseUntil: Date? = nil) {
        self.message = message
        self.attempts = attempts
        self.leaseUntil = leaseUntil
    }
}
