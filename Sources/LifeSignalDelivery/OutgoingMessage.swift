import Foundation
import LifeSignalLanguage
import LifeSignalModels

/// One notification ready to go out over one channel: everything an adapter needs, nothing more.
///
/// The outbox builds it from a queued ``Delivery`` and its ``Notification``; adapters never
/// look anything up themselves.
public struct OutgoingMessage: Sendable, Hashable, Codable {
    public var deliveryID: DeliveryID
    public var notificationID: NotificationID
    public var recipientID: UserID
    public var channel: ChannelKind
    /// Where to send it: e-mail, phone number, URL, ntfy topic, device token or a Web Push
    /// subscription as JSON, exactly as the person registered it.
    public var address: String
    public var kind: LifeSignalModels.Notification.Kind
    public var title: String
    public var body: String
    /// Alerts about a person who may be in trouble; adapters raise priority for these.
    public var urgent: Bool
    /// Where the notification leads in the web app, when it leads somewhere.
    public var link: String?
    /// A webhook channel's own signing secret. Never encoded: it must not reach a log or a payload.
    public var signingSecret: String? = nil
    /// Set when an earlier attempt of this delivery was handed to the provider at this time and
    /// its answer never recorded (a crash, a dead instance): an adapter whose provider can be
    /// asked (Twilio lists texts) looks for that copy before sending again.
    public var inDoubtSince: Date? = nil
    /// The recipient's language (BCP 47), which title and body are already in; nil is
    /// English. Picks a call's voice and prompts, a text's reply line, an e-mail's
    /// `Content-Language`.
    public var language: String? = nil

    private enum CodingKeys: String, CodingKey {
        case deliveryID, notificationID, recipientID, channel, address, kind, title, body, urgent, link, language
    }

    /// The words for what adapters add themselves (reply lines, key prompts), in the
    /// recipient's language.
    public var words: Words { Words(language.flatMap { Language($0) } ?? .english) }

    public init(
        deliveryID: DeliveryID, notificationID: NotificationID, recipientID: UserID,
        channel: ChannelKind, address: String, kind: LifeSignalModels.Notification.Kind, title: String,
        body: String, urgent: Bool, link: String? = nil, signingSecret: String? = nil, language: String? = nil
    ) {
        self.language = language
        self.signingSecret = signingSecret
        self.deliveryID = deliveryID
        self.notificationID = notificationID
        self.recipientID = recipientID
        self.channel = channel
        self.address = address
        self.kind = kind
        self.title = title
        self.body = body
        self.urgent = urgent
        self.link = link
    }
}
