import Foundation

/// One attempt to carry a notification over one channel, with its outcome.
public struct Delivery: Identifiable, Codable, Hashable, Sendable {
    public var id: DeliveryID
    public var notificationID: NotificationID
    public var recipientID: UserID
    public var channel: ChannelKind
    public var address: String
    public var status: Status
    /// Why it failed, in words fit to show a person.
    public var reason: String?
    public var attempts: Int
    /// The provider's own id for the message (Twilio SID, push id…), for callbacks.
    public var providerID: String?
    public var createdAt: Date
    public var updatedAt: Date

    public enum Status: String, Codable, Hashable, Sendable, CaseIterable {
        case queued, sent, delivered, failed
    }

    public init(
        id: DeliveryID, notificationID: NotificationID, recipientID: UserID, channel: ChannelKind,
        address: String, status: Status, reason: String? = nil, attempts: Int = 0,
        providerID: String? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.notificationID = notificationID
        self.recipientID = recipientID
        self.channel = channel
        self.address = address
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.providerID = providerID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What anyone but its recipient may see of a delivery: the channel kind, the outcome, why it
/// failed and when. Never an address, token, topic, URL or provider id: those stay with the
/// person whose channel it is.
public struct DeliveryProof: Identifiable, Codable, Hashable, Sendable {
    public var id: DeliveryID
    public var notificationID: NotificationID
    public var recipientID: UserID
    public var channel: ChannelKind
    public var status: Delivery.Status
    /// Why it failed, in words fit to show a person.
    public var reason: String?
    public var attempts: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// What was sent: the title of the notification it carried ("Ada missed a check-in
    /// (reminder 2)", "Bob is on it", "Ada is safe"), where the report knows it.
    public var what: String?

    public init(_ delivery: Delivery, what: String? = nil) {
        self.what = what
        id = delivery.id
        notificationID = delivery.notificationID
        recipientID = delivery.recipientID
        channel = delivery.channel
        status = delivery.status
        reason = delivery.reason
        attempts = delivery.attempts
        createdAt = delivery.createdAt
        updatedAt = delivery.updatedAt
    }
}
