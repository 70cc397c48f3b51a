import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Incidents (alerts about a person), the responders each was sent to, and what became of
    /// its alert deliveries.
    public struct Incidents: Sendable {
        let tx: StoreTransaction
    }

    public var incidents: Incidents { Incidents(tx: self) }
}

extension StoreTransaction.Incidents {
    /// The incident, its row locked until the transaction ends (on PostgreSQL).
    public func lock(_ id: IncidentID) async throws -> Incident? {
        try await tx.db.queryFirst("SELECT * FROM incidents WHERE id = ?\(tx.lockRow)", id).map(StoreTransaction.decodeIncident)
    }

    /// Opens an incident; false when one of this kind is already open for the user. The store's
    /// own tests use it; the core opens incidents in batches.
    func insert(_ incident: Incident) async throws -> Bool {
        try await insert([incident]).contains(incident.id)
    }

    /// Opens incidents; returns the ids of those opened (not those whose person already has
    /// one of that kind open).
    public func insert(_ incidents: [Incident]) async throws -> Set<IncidentID> {
        let rows = try await tx.multiRow(
            "INSERT INTO incidents (id, user_id, kind, opened_at, due_at, late, notify_count, next_notify_at, ladder, plan_id) VALUES ",
            row: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", suffix: " ON CONFLICT DO NOTHING RETURNING id",
            try incidents.map { incident in
                [
                    incident.id.sqlValue, incident.userID.sqlValue, incident.kind.rawValue.sqlValue,
                    incident.openedAt.sqlValue, incident.dueAt.sqlValue, incident.late.sqlValue,
                    incident.notifyCount.sqlValue, incident.nextNotifyAt.sqlValue,
                    try StoreTransaction.encodeIncidentLadder(incident.ladder).sqlValue, incident.planID.sqlValue,
                ]
            })
        return Set(try rows.map { try $0.id("id") })
    }

    public func incident(_ id: IncidentID) async throws -> Incident? {
        try await tx.db.queryFirst("SELECT * FROM incidents WHERE id = ?", id).map(StoreTransaction.decodeIncident)
    }

    public func openIncidents(of userID: UserID) async throws -> [Incident] {
        try await tx.db.query(
            "SELECT * FROM incidents WHERE user_id = ? AND resolved_at IS NULL ORDER BY opened_at", userID
        ).map(StoreTransaction.decodeIncident)
    }

    public func openIncidents(of userIDs: [UserID]) async throws -> [Incident] {
        guard !userIDs.isEmpty else { return [] }
        let list = StoreTransaction.inList(userIDs)
        return try await tx.db.query(
            "SELECT * FROM incidents WHERE user_id IN \(list.sql) AND resolved_at IS NULL ORDER BY opened_at", list.binds
        ).map(StoreTransaction.decodeIncident)
    }

    public func list(of userID: UserID, limit: Int) async throws -> [Incident] {
        try await tx.db.query(
            "SELECT * FROM incidents WHERE user_id = ? ORDER BY opened_at DESC LIMIT ?", userID, limit
        ).map(StoreTransaction.decodeIncident)
    }

    /// Oldest first, a page at a time: those after the last page's last incident, keyed by
    /// (`opened_at`, `id`) as ``StoreTransaction/CheckIns/list(of:after:limit:)`` is.
    public func list(of userID: UserID, after last: Incident?, limit: Int) async throws -> [Incident] {
        guard let last else {
            return try await tx.db.query(
                "SELECT * FROM incidents WHERE user_id = ? ORDER BY opened_at, id LIMIT ?", userID, limit
            ).map(StoreTransaction.decodeIncident)
        }
        return try await tx.db.query(
            """
            SELECT * FROM incidents WHERE user_id = ? AND (opened_at > ? OR (opened_at = ? AND id > ?))
            ORDER BY opened_at, id LIMIT ?
            """,
            userID, last.openedAt, last.openedAt, last.id, limit
        ).map(StoreTransaction.decodeIncident)
    }

    /// Saves the mutable fields of an incident (acknowledgement, repeats, resolution).
    public func update(_ incident: Incident) async throws {
        try await tx.db.execute(
            """
            UPDATE incidents SET acknowledged_by = ?, acknowledged_at = ?, claim_expires_at = ?,
                notify_count = ?, next_notify_at = ?, resolved_at = ?, resolved_by = ?, resolution = ?,
                ladder = ?, lease_owner = NULL, lease_until = NULL
            WHERE id = ?
            """,
            incident.acknowledgedBy, incident.acknowledgedAt, incident.claimExpiresAt,
            incident.notifyCount, incident.nextNotifyAt, incident.resolvedAt, incident.resolvedBy,
            incident.resolution?.rawValue, try StoreTransaction.encodeIncidentLadder(incident.ladder), incident.id)
    }

    /// Remembers that `userID` was told about the incident, for the all-clear (the store's own
    /// tests; the core adds recipients in batches).
    func addRecipient(_ incidentID: IncidentID, userID: UserID, at: Date) async throws {
        try await addRecipients([IncidentRecipient(incidentID: incidentID, userID: userID, at: at)])
    }

    /// Remembers who was told about which incident, for the all-clears.
    public func addRecipients(_ recipients: [IncidentRecipient]) async throws {
        try await tx.multiRow(
            "INSERT INTO incident_recipients (incident_id, user_id, first_notified_at) VALUES ",
            row: "(?, ?, ?)", suffix: " ON CONFLICT DO NOTHING",
            recipients.map { [$0.incidentID.sqlValue, $0.userID.sqlValue, $0.at.sqlValue] })
    }

    public func recipients(_ incidentID: IncidentID) async throws -> [UserID] {
        try await tx.db.query(
            "SELECT user_id FROM incident_recipients WHERE incident_id = ? ORDER BY first_notified_at",
            incidentID
        ).map { try $0.id("user_id") }
    }
}

extension StoreTransaction {
    static func decodeIncident(_ row: SQLRow) throws -> Incident {
        Incident(
            id: try row.id("id"), userID: try row.id("user_id"),
            kind: try row.value("kind", as: Incident.Kind.self),
            openedAt: try row.date("opened_at"), dueAt: try row.date("due_at"), late: try row.bool("late"),
            acknowledgedBy: try row.optionalID("acknowledged_by"),
            acknowledgedAt: try row.optionalDate("acknowledged_at"),
            claimExpiresAt: try row.optionalDate("claim_expires_at"),
            notifyCount: try row.int("notify_count"), nextNotifyAt: try row.optionalDate("next_notify_at"),
            resolvedAt: try row.optionalDate("resolved_at"), resolvedBy: try row.optionalID("resolved_by"),
            resolution: try row.optionalValue("resolution", as: Incident.Resolution.self),
            ladder: try decodeIncidentLadder(row.optionalString("ladder")), planID: try row.optionalID("plan_id"))
    }
}
