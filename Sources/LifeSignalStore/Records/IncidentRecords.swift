import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Opens an incident; false when one of this kind is already open for the user.
    public func insertIncident(_ incident: Incident) async throws -> Bool {
        try await db.execute(
            """
            INSERT INTO incidents (id, user_id, kind, opened_at, due_at, late, notify_count, next_notify_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """,
            incident.id, incident.userID, incident.kind.rawValue, incident.openedAt, incident.dueAt,
            incident.late, incident.notifyCount, incident.nextNotifyAt) > 0
    }

    public func incident(_ id: IncidentID) async throws -> Incident? {
        try await db.queryFirst("SELECT * FROM incidents WHERE id = ?", id).map(Self.decodeIncident)
    }

    public func openIncidents(of userID: UserID) async throws -> [Incident] {
        try await db.query(
            "SELECT * FROM incidents WHERE user_id = ? AND resolved_at IS NULL ORDER BY opened_at", userID
        ).map(Self.decodeIncident)
    }

    public func openIncidents(of userIDs: [UserID]) async throws -> [Incident] {
        guard !userIDs.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: userIDs.count).joined(separator: ", ")
        return try await db.query(
            "SELECT * FROM incidents WHERE user_id IN (\(marks)) AND resolved_at IS NULL ORDER BY opened_at",
            userIDs.map(\.sqlValue)
        ).map(Self.decodeIncident)
    }

    public func incidents(of userID: UserID, limit: Int) async throws -> [Incident] {
        try await db.query(
            "SELECT * FROM incidents WHERE user_id = ? ORDER BY opened_at DESC LIMIT ?", userID, limit
        ).map(Self.decodeIncident)
    }

    /// Saves the mutable fields of an incident (acknowledgement, repeats, resolution).
    public func updateIncident(_ incident: Incident) async throws {
        try await db.execute(
            """
            UPDATE incidents SET acknowledged_by = ?, acknowledged_at = ?, claim_expires_at = ?,
                notify_count = ?, next_notify_at = ?, resolved_at = ?, resolved_by = ?, resolution = ?,
                lease_owner = NULL, lease_until = NULL
            WHERE id = ?
            """,
            incident.acknowledgedBy, incident.acknowledgedAt, incident.claimExpiresAt,
            incident.notifyCount, incident.nextNotifyAt, incident.resolvedAt, incident.resolvedBy,
            incident.resolution?.rawValue, incident.id)
    }

    /// Remembers that `userID` was told about the incident, for the all-clear.
    public func addIncidentRecipient(_ incidentID: IncidentID, userID: UserID, at: Date) async throws {
        try await db.execute(
            """
            INSERT INTO incident_recipients (incident_id, user_id, first_notified_at) VALUES (?, ?, ?)
            ON CONFLICT DO NOTHING
            """, incidentID, userID, at)
    }

    public func incidentRecipients(_ incidentID: IncidentID) async throws -> [UserID] {
        try await db.query(
            "SELECT user_id FROM incident_recipients WHERE incident_id = ? ORDER BY first_notified_at",
            incidentID
        ).map { try $0.id("user_id") }
    }

    static func decodeIncident(_ row: SQLRow) throws -> Incident {
        Incident(
            id: try row.id("id"), userID: try row.id("user_id"),
            kind: Incident.Kind(rawValue: try row.string("kind")) ?? .missedCheckIn,
            openedAt: try row.date("opened_at"), dueAt: try row.date("due_at"), late: try row.bool("late"),
            acknowledgedBy: try row.optionalID("acknowledged_by"),
            acknowledgedAt: try row.optionalDate("acknowledged_at"),
            claimExpiresAt: try row.optionalDate("claim_expires_at"),
            notifyCount: try row.int("notify_count"), nextNotifyAt: try row.optionalDate("next_notify_at"),
            resolvedAt: try row.optionalDate("resolved_at"), resolvedBy: try row.optionalID("resolved_by"),
            resolution: try row.optionalString("resolution").flatMap(Incident.Resolution.init(rawValue:)))
    }
}
