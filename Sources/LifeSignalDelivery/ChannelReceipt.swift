import LifeSignalModels

/// What a provider said when it accepted a message.
public struct ChannelReceipt: Sendable, Hashable {
    /// `.sent` when a provider accepted it for later delivery, `.delivered` when it reached the
    /// recipient's endpoint (a webhook answered, the log printed it).
    public var status: Delivery.Status
    /// The provider's id for the message (Twilio SID, apns-id, push location…), kept for callbacks.
    public var providerID: String?
    /// Nothing was sent now: the copy an earlier, cut-off attempt handed over was found at the
    /// provider (see ``OutgoingMessage/inDoubtSince``).
    public var foundAtProvider: Bool

    public init(status: Delivery.Status, providerID: String? = nil, foundAtProvider: Bool = false) {
        self.status = status
        self.providerID = providerID
        self.foundAtProvider = foundAtProvider
    }

    /// The provider already has it from an earlier attempt; not sent again.
    public static func foundAtProvider(providerID: String) -> Self {
        Self(status: .sent, providerID: providerID, foundAtProvider: true)
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
