import Foundation

/// Something responders must act on, open until resolved.
public struct Incident: Identifiable, Codable, Hashable, Sendable {
    public var id: IncidentID
    public var userID: UserID
    public var kind: Kind
    public var openedAt: Date
    /// The deadline (missed check-in) or the moment of the SOS that caused it.
    public var dueAt: Date
    /// True when the engine opened it after its due time (the server was down).
    public var late: Bool
    public var acknowledgedBy: UserID?
    public var acknowledgedAt: Date?
    /// An acknowledgement ("I'm on it") lapses at this time unless resolved.
    public var claimExpiresAt: Date?
    /// How many times responders have been notified.
    public var notifyCount: Int
    public var nextNotifyAt: Date?
    public var resolvedAt: Date?
    public var resolvedBy: UserID?
    public var resolution: Resolution?
    /// The ladder it climbs, snapshotted when it opened; nil for an incident opened before
    /// ladders (everyone is told at once, as then).
    public var ladder: IncidentLadder?
    /// The plan she is late back from (``Kind/planOverdue`` only).
    public var planID: PlanID?

    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        case missedCheckIn = "missed_check_in"
        case manualAlert = "manual_alert"
        /// She is not back from a plan by its time ("late back from: Hiking the Rax trail").
        case planOverdue = "plan_overdue"
    }

    public enum Resolution: String, Codable, Hashable, Sendable, CaseIterable {
        /// The person checked in (directly or by answering a ping).
        case checkedIn = "checked_in"
        /// A responder checked in on the person's behalf.
        case checkedInByResponder = "checked_in_by_responder"
        /// The person cleared their manual alert ("I'm safe").
        case cleared
        /// A responder resolved it.
        case resolvedByResponder = "resolved_by_responder"
    }

    public var isOpen: Bool { resolvedAt == nil }

    public init(
        id: IncidentID, userID: UserID, kind: Kind, openedAt: Date, dueAt: Date,
        late: Bool = false, acknowledgedBy: UserID? = nil, acknowledgedAt: Date? = nil,
        claimExpiresAt: Date? = nil, notifyCount: Int = 0, nextNotifyAt: Date? = nil,
        resolvedAt: Date? = nil, resolvedBy: UserID? = nil, resolution: Resolution? = nil, ladder: IncidentLadder? = nil,
        planID: PlanID? = nil
    ) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.openedAt = openedAt
        self.dueAt = dueAt
        self.late = late
        self.acknowledgedBy = acknowledgedBy
        self.acknowledgedAt = acknowledgedAt
        self.claimExpiresAt = claimExpiresAt
        self.notifyCount = notifyCount
        self.nextNotifyAt = nextNotifyAt
        self.resolvedAt = resolvedAt
        self.resolvedBy = resolvedBy
        self.resolution = resolution
        self.ladder = ladder
        self.planID = planID
    }
}
