import Foundation

/// A person's sealed details as she sees them herself (`GET /v1/me/sealed-details`).
public struct SealedDetails: Codable, Hashable, Sendable {
    /// Empty when she has written none.
    public var details: String
    public var updatedAt: Date?

    public init(details: String, updatedAt: Date?) {
        self.details = details
        self.updatedAt = updatedAt
    }
}

/// Sealed details opened by a responder during an open alert
/// (`POST /v1/incidents/{id}/sealed-details`). Opening them is recorded on the person's
/// timeline and she is told who read them.
public struct SealedDetailsView: Codable, Hashable, Sendable {
    public var incidentID: IncidentID
    public var userID: UserID
    /// Empty when the person has written none (nothing is recorded then).
    public var details: String
    /// For an alert about a plan she is late back from: that plan's details (route, car,
    /// companions), nil when it has none.
    public var planDetails: String?
    public var openedAt: Date

    public init(incidentID: IncidentID, userID: UserID, details: String, planDetails: String? = nil, openedAt: Date) {
        self.incidentID = incidentID
        self.userID = userID
        self.details = details
        self.planDetails = planDetails
        self.openedAt = openedAt
    }
}
