import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// The manual alert (SOS) and what responders do about an incident.
@DependencyClient
public struct AlertClient: Sendable {
    /// Opens a manual alert: every responder is notified on every channel at once.
    public var raise: @Sendable () async throws -> Incident
    /// "I'm safe": clears the manual alert.
    public var clear: @Sendable () async throws -> CheckInStatus
    /// The incident with the proof of who was reached.
    public var incidentReport: @Sendable (_ id: IncidentID) async throws -> IncidentReport
    /// "I'm on it": the other responders are told who is handling it.
    public var acknowledge: @Sendable (_ id: IncidentID) async throws -> Incident
    public var resolve: @Sendable (_ id: IncidentID) async throws -> Incident
    /// A responder checks in for a dependent (recorded as such); resolves a missed check-in.
    public var checkInOnBehalf: @Sendable (_ userID: UserID, _ checkInID: CheckInID) async throws -> CheckInResult
    /// A responder opens the person's sealed details during an open alert (she is told).
    public var openSealedDetails: @Sendable (_ id: IncidentID) async throws -> SealedDetailsView
}

extension AlertClient: TestDependencyKey {
    public static let testValue = AlertClient()

    public static let previewValue = AlertClient(
        raise: { .preview },
        clear: { .preview },
        incidentReport: { _ in
            IncidentReport(
                incident: .preview, user: .preview, acknowledgedByName: nil,
                recipients: [.init(userID: Contact.preview.userID, name: Contact.preview.fullName, deliveries: [])])
        },
        acknowledge: { _ in
            var incident = Incident.preview
            incident.acknowledgedBy = Contact.preview.userID
            incident.acknowledgedAt = Date()
            return incident
        },
        resolve: { _ in
            var incident = Incident.preview
            incident.resolvedAt = Date()
            incident.resolution = .resolvedByResponder
            return incident
        },
        checkInOnBehalf: { userID, id in
            CheckInResult(
                checkIn: CheckIn(id: id, userID: userID, at: Date(), source: .responder, recordedBy: User.preview.id),
                status: .preview, duplicate: false)
        },
        openSealedDetails: { id in
            SealedDetailsView(incidentID: id, userID: User.preview.id, details: "Key under the blue pot.", openedAt: Date())
        }
    )
}

extension DependencyValues {
    public var alertClient: AlertClient {
        get { self[AlertClient.self] }
        set { self[AlertClient.self] = newValue }
    }
}
