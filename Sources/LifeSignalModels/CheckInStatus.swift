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
    public var pausedUntil: Date?
    /// The open incident, if any (missed check-in or manual alert).
    public var openIncident: IncidentSummary?
    /// The length of the person's check-in period, for the "getting close" colour threshold.
    public var periodSeconds: Int?

    public enum State: String, Codable, Hashable, Sendable, CaseIterable {
        /// Checked in, deadline ahead.
        case ok
        /// Past the deadline.
        case nonResponsive = "non_responsive"
        /// Paused: no reminders, no incidents.
        case paused
        /// A manual alert (SOS) is active.
        case alert
    }

    public init(
        userID: UserID, lastCheckInAt: Date?, deadline: Date, secondsLeft: Int, state: State,
        pausedUntil: Date?, openIncident: IncidentSummary?, periodSeconds: Int? = nil
    ) {
        self.userID = userID
        self.lastCheckInAt = lastCheckInAt
        self.deadline = deadline
        self.secondsLeft = secondsLeft
        self.state = state
        self.pausedUntil = pausedUntil
        self.openIncident = openIncident
        self.periodSeconds = periodSeconds
    }
}

/// Enough of an incident to show on a status card.
public struct IncidentSummary: Codable, Hashable, Sendable {
    public var id: IncidentID
    public var kind: Incident.Kind
    public var openedAt: Date
    public var acknowledgedBy: UserID?
    public var acknowledgedByName: String?

    public init(
        id: IncidentID, kind: Incident.Kind, openedAt: Date, acknowledgedBy: UserID? = nil,
        acknowledgedByName: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.openedAt = openedAt
        self.acknowledgedBy = acknowledgedBy
        self.acknowledgedByName = acknowledgedByName
    }
}
