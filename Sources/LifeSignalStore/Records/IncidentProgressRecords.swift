import Foundation
import LifeSignalModels

/// A responder told about an incident, as the status of the person it is about shows them.
public struct IncidentRecipientRow: Sendable {
    public var incidentID: IncidentID
    public var userID: UserID
    public var firstName: String
    public var lastName: String
    public var phone: String
    public var firstNotifiedAt: Date
}

/// An alert delivery with the incident it was about.
public struct IncidentDelivery: Sendable, Hashable {
    public var incidentID: IncidentID
    public var delivery: Delivery
}

/// A responder told about an incident, and when first.
public struct IncidentRecipient: Sendable, Hashable {
    public var incidentID: IncidentID
    public var userID: UserID
    public var at: Date

    public init(incidentID: IncidentID, userID: UserID, at: Date) {
        self.incidentID = incidentID
        self.userID = userID
        self.at = at
    }
}

extension StoreTransaction.Incidents {
    /// Everyone told about each incident, with their names, in the order they were first told.
    /// Read through the recipients' primary key (one statement whatever the count).
    public func recipientRows(_ incidents: [IncidentID]) async throws -> [IncidentRecipientRow] {
        guard !incidents.isEmpty else { return [] }
        let list = StoreTransaction.inList(incidents)
        return try await tx.db.query(
            """
            SELECT r.incident_id, r.user_id, r.first_notified_at, u.first_name, u.last_name, u.phone
            FROM incident_recipients r JOIN users u ON u.id = r.user_id
            WHERE r.incident_id IN \(list.sql) ORDER BY r.first_notified_at, r.user_id
            """, list.binds
        ).map { row in
            IncidentRecipientRow(
                incidentID: try row.id("incident_id"), userID: try row.id("user_id"),
                firstName: try row.string("first_name"), lastName: try row.string("last_name"),
                phone: try row.string("phone"), firstNotifiedAt: try row.date("first_notified_at"))
        }
    }

    /// The alert deliveries (incident opened, emergency alert and their repeats) sent to each
    /// incident's responders, oldest first. Read through the recipients and the notifications'
    /// recipient index, not a scan of every notification.
    public func alertDeliveries(incidents: [IncidentID]) async throws -> [IncidentDelivery] {
        guard !incidents.isEmpty else { return [] }
        let list = StoreTransaction.inList(incidents)
        return try await tx.db.query(
            """
            SELECT r.incident_id AS for_incident, d.* FROM incident_recipients r
            JOIN notifications n ON n.recipient_id = r.user_id AND n.incident_id = r.incident_id
            JOIN deliveries d ON d.notification_id = n.id
            WHERE r.incident_id IN \(list.sql) AND n.type IN ('incident_opened', 'manual_alert')
                AND (n.subject_user_id IS NULL OR n.subject_user_id <> n.recipient_id)
            ORDER BY d.created_at, d.fallback_rank, d.id
            """, list.binds
        ).map { IncidentDelivery(incidentID: try $0.id("for_incident"), delivery: try StoreTransaction.decodeDelivery($0)) }
    }
}
