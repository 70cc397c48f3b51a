import LifeSignalModels

/// A way to hand a message to one provider (an SMTP server, Twilio, a push service…).
///
/// Adapters are stateless apart from caches, safe to call concurrently, and never retry
/// themselves: they report a ``DeliveryFailure`` and the ``OutboxWorker`` decides what happens next.
public protocol ChannelAdapter: Sendable {
    /// The channel this adapter serves.
    var kind: ChannelKind { get }

    /// Sends one message, returning the provider's receipt or a failure with a reason fit to show a person.
    func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt
}
