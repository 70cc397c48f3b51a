import Foundation

/// One planned step of the escalation for the person's next deadline, as `GET /v1/timeline/preview` shows it:
/// "if you miss tonight: 20:30 reminder, 21:00 last call, 21:10 Alice and Bob by SMS…".
public struct PreviewStep: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case reminder
        case lastCall = "last_call"
        case incident
        case repeatNotification = "repeat"
    }

    /// A responder who would be told, and their channels in the order they are tried.
    public struct Responder: Sendable, Hashable, Codable {
        public var userID: UserID
        public var name: String
        public var channels: [ChannelKind]

        public init(userID: UserID, name: String, channels: [ChannelKind]) {
            self.userID = userID
            self.name = name
            self.channels = channels
        }
    }

    public var at: Date
    public var kind: Kind
    /// "Reminder to you", "Alert Bob by email, Cy by log"…
    public var summary: String
    /// For the incident step and its repeats: who is told, and how.
    public var responders: [Responder]

    public init(at: Date, kind: Kind, summary: String, responders: [Responder] = []) {
        self.at = at
        self.kind = kind
        self.summary = summary
        self.responders = responders
    }
}

/// A drill: a test notification to every responder on every channel, with each delivery's outcome.
public struct DrillReport: Sendable, Hashable, Codable {
    public struct Recipient: Sendable, Hashable, Codable {
        public var userID: UserID
        public var name: String
        public var notificationID: NotificationID
        public var deliveries: [DeliveryProof]
        /// Where they stand on the person's ladder as it was at the drill: the step, and how
        /// long after an alert opens it is told. Nil when the ladder tells everyone at once.
        public var ladderPlace: LadderPlace?
        /// On the person's own row, the test of her daily call (a drill of someone on daily
        /// calls rings her too, through the same menu and keys): whether a key she pressed on
        /// it checked her in. Nil on a responder's row.
        public var checkedIn: Bool?

        public init(
            userID: UserID, name: String, notificationID: NotificationID, deliveries: [DeliveryProof], ladderPlace: LadderPlace? = nil,
            checkedIn: Bool? = nil
        ) {
            self.userID = userID
            self.name = name
            self.notificationID = notificationID
            self.deliveries = deliveries
            self.ladderPlace = ladderPlace
            self.checkedIn = checkedIn
        }
    }

    public var id: DrillID
    public var createdAt: Date
    public var recipients: [Recipient]

    public init(id: DrillID, createdAt: Date, recipients: [Recipient]) {
        self.id = id
        self.createdAt = createdAt
        self.recipients = recipients
    }
}

public typealias DrillID = Identifier<DrillReport>
