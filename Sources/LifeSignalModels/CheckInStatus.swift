import Foundation

/// Where a person stands right now: what their contacts and they themselves see.
public struct CheckInStatus: Codable, Hashable, Sendable {
    public var userID: UserID
    public var lastCheckInAt: Date?
    /// When the current period ends; past it the person is non-responsive.
    public var deadline: Date
    /// Seconds until the deadline; negative once past it.
    public var secondsLeft: Int
    public var state: State
    /// While paused: when the pause (and any that follows on from it) ends, and who set it.
    public var pausedUntil: Date?
    public var pausedBy: String?
    /// Her next pause that has not begun yet ("away from Saturday 12:00"), if any.
    public var nextPause: Pause?
    /// The open incident, if any (missed check-in or manual alert).
    public var openIncident: IncidentSummary?
    /// The length of the person's check-in period, for the "getting close" colour threshold.
    public var periodSeconds: Int?
    /// The person's time zone (IANA name), so a page about them can give their clock beside
    /// the reader's ("09:30 their time, 03:30 yours"). Nil from a server before it existed.
    public var timeZone: String?

    public enum State: String, Codable, Hashable, Sendable, CaseIterable {
        /// Checked in, deadline ahead.
        case ok
        /// Past the deadline.
        case nonResponsive = "non_responsive"
        /// Paused: no reminders, no incidents.
        case paused
        /// A manual alert (SOS) is active.
        case alert
        /// Watch-only: the person only watches over others; no check-ins are expected of them.
        case watching
    }

    public init(
        userID: UserID, lastCheckInAt: Date?, deadline: Date, secondsLeft: Int, state: State,
        pausedUntil: Date?, pausedBy: String? = nil, nextPause: Pause? = nil, openIncident: IncidentSummary?,
        periodSeconds: Int? = nil, timeZone: String? = nil
    ) {
        self.userID = userID
        self.lastCheckInAt = lastCheckInAt
        self.deadline = deadline
        self.secondsLeft = secondsLeft
        self.state = state
        self.pausedUntil = pausedUntil
        self.pausedBy = pausedBy
        self.nextPause = nextPause
        self.openIncident = openIncident
        self.periodSeconds = periodSeconds
        self.timeZone = timeZone
    }
}

/// Enough of an incident to show on a status card: and, for the person it is about and their
/// responders, who was told, how each delivery went and who is on it.
public struct IncidentSummary: Codable, Hashable, Sendable {
    public var id: IncidentID
    public var kind: Incident.Kind
    public var openedAt: Date
    /// The check-in deadline a missed check-in is about (for an SOS, when it was raised).
    public var dueAt: Date?
    public var acknowledgedBy: UserID?
    public var acknowledgedByName: String?
    /// Since when `acknowledgedBy` has said "I'm on it".
    public var acknowledgedAt: Date?
    /// Every responder told about the incident, in the order they were first told; nil where
    /// the status was built without them (a summary in a list).
    public var responders: [ResponderProgress]?
    /// Where the incident is on its ladder: the step told last (1-based) of how many.
    public var step: Int?
    public var steps: Int?
    /// When the next step is told, unless someone says "I'm on it" first.
    public var nextStepAt: Date?
    /// Set once nobody had said "I'm on it" after the last step: everyone was called.
    public var exhaustedAt: Date?

    public init(
        id: IncidentID, kind: Incident.Kind, openedAt: Date, dueAt: Date? = nil, acknowledgedBy: UserID? = nil,
        acknowledgedByName: String? = nil, acknowledgedAt: Date? = nil, responders: [ResponderProgress]? = nil,
        step: Int? = nil, steps: Int? = nil, nextStepAt: Date? = nil, exhaustedAt: Date? = nil
    ) {
        self.id = id
        self.kind = kind
        self.openedAt = openedAt
        self.dueAt = dueAt
        self.acknowledgedBy = acknowledgedBy
        self.acknowledgedByName = acknowledgedByName
        self.acknowledgedAt = acknowledgedAt
        self.responders = responders
        self.step = step
        self.steps = steps
        self.nextStepAt = nextStepAt
        self.exhaustedAt = exhaustedAt
    }
}

/// One responder told about an incident: what happened to each alert sent to them (channel
/// kind and outcome, never an address) and whether they are on it.
public struct ResponderProgress: Codable, Hashable, Sendable, Identifiable {
    public var userID: UserID
    public var name: String
    /// The alert deliveries to them, oldest first (the latest few).
    public var deliveries: [DeliveryProof]
    /// Set while this responder has said "I'm on it".
    public var acknowledgedAt: Date?

    public var id: UserID { userID }

    public init(userID: UserID, name: String, deliveries: [DeliveryProof], acknowledgedAt: Date? = nil) {
        self.userID = userID
        self.name = name
        self.deliveries = deliveries
        self.acknowledgedAt = acknowledgedAt
    }

    /// How far the alerts got: reached only when one was delivered (a call: answered); sent
    /// when one was handed to a provider that has not confirmed it; trying while one is queued;
    /// unreachable when every delivery failed.
    public var reach: Reach {
        if deliveries.contains(where: { $0.status == .delivered }) { return .reached }
        if deliveries.contains(where: { $0.status == .sent }) { return .sent }
        if deliveries.contains(where: { $0.status == .queued }) { return .trying }
        return deliveries.isEmpty ? .trying : .unreachable
    }

    public enum Reach: String, Codable, Hashable, Sendable {
        /// Delivered, or a call answered.
        case reached
        /// Sent, not yet confirmed: "sent" is not "reached".
        case sent
        case trying, unreachable
    }
}
