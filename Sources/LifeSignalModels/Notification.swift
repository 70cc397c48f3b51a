import Foundation

/// One event in a person's notification history.
public struct Notification: Identifiable, Codable, Hashable, Sendable {
    public var id: NotificationID
    public var recipientID: UserID
    public var type: Kind
    /// The person the notification is about (the dependent who missed a check-in…).
    public var subjectUserID: UserID?
    public var incidentID: IncidentID?
    public var title: String
    public var body: String
    public var createdAt: Date
    public var readAt: Date?

    public var category: Category { type.category }
    public var isRead: Bool { readAt != nil }

    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        case reminder
        case nonResponsive = "non_responsive"
        case incidentOpened = "incident_opened"
        case incidentAcknowledged = "incident_acknowledged"
        case incidentResolved = "incident_resolved"
        case manualAlert = "manual_alert"
        case manualAlertCleared = "manual_alert_cleared"
        case pingReceived = "ping_received"
        case pingAnswered = "ping_answered"
        case pingCleared = "ping_cleared"
        case contactRequested = "contact_requested"
        case contactRequestAccepted = "contact_request_accepted"
        case contactAdded = "contact_added"
        case contactRemoved = "contact_removed"
        case roleChanged = "role_changed"
        case drill
        case channelCode = "channel_code"
        /// Every channel of a responder failed for an alert: "We could not reach Cy".
        case deliveryFailed = "delivery_failed"
        /// The person's own notice that her alert went out ("Bob has been alerted", or that
        /// nobody could be): hers, with her own prompts, never a responder's alert.
        case alertSent = "alert_sent"
        /// A person a responder watches over paused check-ins, or resumed them: nobody is
        /// alerted about her meanwhile.
        case pauseChanged = "pause_changed"
        /// A responder opened the person's sealed details during an alert: hers, so she always
        /// knows who read them.
        case sealedDetailsRead = "sealed_details_read"
        /// A person a responder watches over checked in and asked for a call today ("I'm OK,
        /// but please call me today"): quiet, no incident, at most once a day.
        case callRequest = "call_request"
        /// Her daily call ("Good morning Ada, this is LifeSignal. Press 1 if you're OK"):
        /// a call to her number only, answered by a key.
        case dailyCall = "daily_call"
        /// Her daily call could not be placed (refused, or not handed to the provider on time):
        /// her responders are asked to check on her, because the service went quiet.
        case dailyCallFailed = "daily_call_failed"
        /// The call that asks her whether she wants daily calls someone set up for her.
        case dailyCallConsent = "daily_call_consent"
        /// To the person who set up daily calls for someone: she agreed, said no, or never answered.
        case dailyCallSetup = "daily_call_setup"
        /// A short call telling her a responder marked her away (no daily calls until then),
        /// and that key 1 keeps the calls on.
        case dailyCallAway = "daily_call_away"
        /// To her responders: she started a plan ("Ada: Hiking the Rax trail, back by 18:00"),
        /// its headline and time only.
        case planStarted = "plan_started"
        /// To her, 15 minutes before a plan is due: back yet, or more time?
        case planReminder = "plan_reminder"
        /// To her, at a plan's due time: she is late, and who will be alerted when.
        case planLate = "plan_late"
        /// To the responders told of a plan: she is back, or called it off.
        case planEnded = "plan_ended"

        public var category: Category {
            switch self {
            case .nonResponsive, .incidentOpened, .incidentAcknowledged, .incidentResolved,
                .manualAlert, .manualAlertCleared, .deliveryFailed, .alertSent, .sealedDetailsRead, .dailyCallFailed, .planLate:
                .alerts
            case .pingReceived, .pingAnswered, .pingCleared, .callRequest: .pings
            case .contactRequested, .contactRequestAccepted, .contactAdded, .contactRemoved, .roleChanged, .pauseChanged,
                .dailyCallSetup, .planStarted, .planEnded:
                .contacts
            case .reminder, .drill, .channelCode, .dailyCall, .dailyCallConsent, .dailyCallAway, .planReminder: .system
            }
        }
    }

    /// The filters of the notifications screen.
    public enum Category: String, Codable, Hashable, Sendable, CaseIterable {
        case alerts, pings, contacts, system
    }

    public init(
        id: NotificationID, recipientID: UserID, type: Kind, subjectUserID: UserID? = nil,
        incidentID: IncidentID? = nil, title: String, body: String, createdAt: Date,
        readAt: Date? = nil
    ) {
        self.id = id
        self.recipientID = recipientID
        self.type = type
        self.subjectUserID = subjectUserID
        self.incidentID = incidentID
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.readAt = readAt
    }
}
