import Foundation

/// A queued delivery claimed from the outbox, with how often it has been tried before.
public struct OutboxItem: Sendable, Hashable {
    public var message: OutgoingMessage
    /// Attempts already made on this delivery before this claim; 0 for a fresh one.
    public var attempts: Int
    /// When the lease that makes this worker the only one attempting it ends: the claim's,
    /// or the one a delivery handed over was stored with.
    public var leaseUntil: Date

    public init(message: OutgoingMessage, attempts: Int, leaseUntil: Date) {
        self.message = message
        self.attempts = attempts
        self.leaseUntil = leaseUntil
    }
}
