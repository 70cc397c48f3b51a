import LifeSignalModels
import Logging

/// Development channel: writes each message to the log instead of sending it.
///
/// It is the default so the whole product runs without any provider account.
public struct LogChannel: ChannelAdapter {
    public let kind: ChannelKind = .log
    private let logger: Logger

    /// - Parameter logger: where messages go; the default label is `lifesignal.delivery.log`.
    public init(logger: Logger = Logger(label: "lifesignal.delivery.log")) {
        self.logger = logger
    }

    /// The recipient is named by user id; the address (their phone number, on the default
    /// channel) is left out of the log.
    public func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        logger.notice(
            "\(message.title): \(message.body)",
            metadata: [
                "delivery": "\(message.deliveryID)",
                "notification": "\(message.notificationID)",
                "recipient": "\(message.recipientID)",
                "channel": "\(message.channel.rawValue)",
                "kind": "\(message.kind.rawValue)",
                "urgent": "\(message.urgent)",
                "link": "\(message.link ?? "")",
            ])
        return .delivered(providerID: "log-\(message.deliveryID)")
    }
}
