import LifeSignalModels

/// What a provider said when it accepted a message.
public struct ChannelReceipt: Sendable, Hashable {
    /// `.sent` when a provider accepted it for later delivery, `.delivered` when it reached the
    /// recipient's endpoint (a webhook answered, the log printed it).
    public var status: Delivery.Status
    /// The provider's id for the message (Twilio SID, apns-id, push location…), kept for callbacks.
    public var providerID: String?

    public init(status: Delivery.Status, providerID: String? = nil) {
        self.status = status
        self.providerID = providerID
    }

    /// Accepted by the provider, not yet known to have arrived.
    public static func sent(providerID: String? = nil) -> Self {
        Self(status: .sent, providerID: providerID)
    }

    /// Known to have reached the recipient's endpoint.
    public static func delivered(providerID: String? = nil) -> Self {
        Self(status: .delivered, providerID: providerID)
    }
}
