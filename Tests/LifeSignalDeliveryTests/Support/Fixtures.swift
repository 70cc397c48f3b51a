import Foundation
import LifeSignalDelivery
import LifeSignalModels

extension OutgoingMessage {
    /// A message with fixed ids, so expectations can spell them out.
    static func fixture(
        channel: ChannelKind, address: String,
        deliveryID: DeliveryID = DeliveryID(UUID(uuidString: "00000000-0000-0000-0000-0000000000d1")!),
        kind: LifeSignalModels.Notification.Kind = .incidentOpened, title: String = "Alice missed her check-in",
        body: String = "Alice has not checked in since 08:00. Please call her.",
        urgent: Bool = true, link: String? = "https://lifesignal.example/incidents/1"
    ) -> OutgoingMessage {
        OutgoingMessage(
            deliveryID: deliveryID,
            notificationID: NotificationID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!),
            recipientID: UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b1")!),
            channel: channel, address: address, kind: kind, title: title, body: body,
            urgent: urgent, link: link)
    }
}

/// 2026-03-03 09:12:00 UTC: the tests' fixed "now".
let fixedNow = Date(timeIntervalSince1970: 1_772_529_120)
