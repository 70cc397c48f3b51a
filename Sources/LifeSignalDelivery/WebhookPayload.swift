import Foundation
import LifeSignalModels

/// The JSON body of a webhook call. Keys are snake_case; dates are ISO 8601 in UTC.
///
/// ```json
/// {"delivery_id":"…","notification_id":"…","recipient_id":"…","kind":"incident_opened",
///  "title":"…","body":"…","urgent":true,"link":"https://…","sent_at":"2026-03-03T09:12:00Z"}
/// ```
public struct WebhookPayload: Codable, Sendable, Hashable {
    public var deliveryID: DeliveryID
    public var notificationID: NotificationID
    public var recipientID: UserID
    public var kind: LifeSignalModels.Notification.Kind
    public var title: String
    public var body: String
    public var urgent: Bool
    public var link: String?
    public var sentAt: Date

    public init(_ message: OutgoingMessage, sentAt: Date) {
        self.deliveryID = message.deliveryID
        self.notificationID = message.notificationID
        self.recipientID = message.recipientID
        self.kind = message.kind
        self.title = message.title
        self.body = message.body
        self.urgent = message.urgent
        self.link = message.link
        self.sentAt = sentAt
    }

    enum CodingKeys: String, CodingKey {
        case deliveryID = "delivery_id"
        case notificationID = "notification_id"
        case recipientID = "recipient_id"
        case kind, title, body, urgent, link
        case sentAt = "sent_at"
    }

    /// The encoder used for the wire format (sorted keys, so signatures are easy to reproduce).
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The decoder matching ``encoder``.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
