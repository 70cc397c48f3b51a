import Foundation
import LifeSignalModels

/// One capture as stored: a fix, or (with no coordinates) a capture that failed; and the
/// alert it belongs to, if one about her was open when it came.
public struct LocationRow: Sendable, Hashable {
    public var id: String
    public var userID: UserID
    public var incidentID: IncidentID?
    public var fix: LocationFix?
    public var failure: LocationFailure?
    public var recordedAt: Date

    public init(id: String, userID: UserID, incidentID: IncidentID?, fix: LocationFix?, failure: LocationFailure?, recordedAt: Date) {
        self.id = id
        self.userID = userID
        self.incidentID = incidentID
        self.fix = fix
        self.failure = failure
        self.recordedAt = recordedAt
    }

    public var stored: StoredLocation {
        StoredLocation(fix: fix, couldNotRead: failure, recordedAt: recordedAt, incidentID: incidentID)
    }
}

extension StoreTransaction {
    /// Where people were: each capture, her location switch, and who looked during an alert.
    public struct Locations: Sendable {
        let tx: StoreTransaction
    }

    public var locations: Locations { Locations(tx: self) }
}

extension StoreTransaction.Locations {
    /// Her location switch: 0 off, 1 at her SOS and plans, 2 at her check-ins too.
    public func setShareLocation(_ userID: UserID, _ level: Int) async throws {
        try await tx.db.execute("UPDATE users SET share_location = ? WHERE id = ?", level, userID)
    }

    public func insert(_ row: LocationRow) async throws {
        let source = (row.fix?.source ?? row.failure?.source ?? .sos).rawValue
        let captured = row.fix?.capturedAt ?? row.failure?.at ?? row.recordedAt
        try await tx.db.execute(
            """
            INSERT INTO locations (id, user_id, incident_id, latitude_e7, longitude_e7, accuracy_m, source, captured_at, recorded_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            row.id, row.userID, row.incidentID, row.fix.map { Int64(($0.latitude * 1e7).rounded()) },
            row.fix.map { Int64(($0.longitude * 1e7).rounded()) }, row.fix.map { Int64($0.accuracyMeters.rounded()) }, source,
            captured, row.recordedAt)
    }

    /// Deletes her captures that belong to no alert: the failed ones only, or every one.
    public func deleteLoose(of userID: UserID, failedOnly: Bool) async throws {
        try await tx.db.execute(
            "DELETE FROM locations WHERE user_id = ? AND incident_id IS NULL\(failedOnly ? " AND latitude_e7 IS NULL" : "")", userID)
    }

    /// Deletes every capture of hers and every record of who looked (sharing turned off).
    public func deleteAll(of userID: UserID) async throws {
        try await tx.db.execute("DELETE FROM locations WHERE user_id = ?", userID)
        try await tx.db.execute("DELETE FROM location_views WHERE user_id = ?", userID)
    }

    /// Her captures that may be shown now: those of no alert and those of her open alerts,
    /// newest first.
    public func visible(of userID: UserID, limit: Int = 20) async throws -> [LocationRow] {
        try await tx.db.query(
            """
            SELECT * FROM locations WHERE user_id = ? AND (incident_id IS NULL OR incident_id IN
                (SELECT id FROM incidents WHERE user_id = ? AND resolved_at IS NULL))
            ORDER BY captured_at DESC, recorded_at DESC, id DESC LIMIT ?
            """, userID, userID, limit
        ).map(StoreTransaction.decodeLocation)
    }

    /// Every capture of hers still kept, oldest first (her data export).
    public func all(of userID: UserID) async throws -> [LocationRow] {
        try await tx.db.query("SELECT * FROM locations WHERE user_id = ? ORDER BY captured_at, id", userID)
            .map(StoreTransaction.decodeLocation)
    }

    /// Whether `viewer` has looked at her location during `incident`.
    public func hasSeen(incident: IncidentID, viewer: UserID) async throws -> Bool {
        try await tx.db.queryFirst(
            "SELECT 1 AS seen FROM location_views WHERE incident_id = ? AND viewer_id = ?", incident, viewer) != nil
    }

    /// Records `viewer`'s first look during `incident`; false when they had looked before
    /// (racing looks on PostgreSQL: one of them wins).
    public func recordView(incident: IncidentID, viewer: UserID, of userID: UserID, at: Date) async throws -> Bool {
        try await tx.db.execute(
            """
            INSERT INTO location_views (incident_id, viewer_id, user_id, seen_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (incident_id, viewer_id) DO NOTHING
            """, incident, viewer, userID, at) == 1
    }

    /// Deletes up to `limit` captures that belong to no alert and were stored before `cutoff`.
    @discardableResult
    public func pruneLoose(before cutoff: Date, limit: Int) async throws -> Int {
        try await tx.db.execute(
            "DELETE FROM locations WHERE id IN (SELECT id FROM locations WHERE incident_id IS NULL AND recorded_at < ? LIMIT ?)",
            cutoff, limit)
    }

    /// Deletes up to `limit` captures of alerts that ended before `cutoff`, with the records of
    /// who looked at them.
    @discardableResult
    public func pruneAlertLocations(endedBefore cutoff: Date, limit: Int) async throws -> Int {
        let deleted = try await tx.db.execute(
            """
            DELETE FROM locations WHERE id IN (SELECT l.id FROM locations l JOIN incidents i ON i.id = l.incident_id
                WHERE l.incident_id IS NOT NULL AND i.resolved_at IS NOT NULL AND i.resolved_at < ? LIMIT ?)
            """, cutoff, limit)
        try await tx.db.execute(
            """
            DELETE FROM location_views WHERE incident_id IN (SELECT id FROM incidents WHERE resolved_at IS NOT NULL
                AND resolved_at < ? AND id IN (SELECT incident_id FROM location_views))
            """, cutoff)
        return deleted
    }
}

extension StoreTransaction {
    static func decodeLocation(_ row: SQLRow) throws -> LocationRow {
        let source = try row.value("source", as: LocationSource.self)
        let at = try row.date("captured_at")
        var fix: LocationFix?
        var failure: LocationFailure?
        if let lat = try row.optionalInt("latitude_e7"), let lon = try row.optionalInt("longitude_e7") {
            fix = LocationFix(
                latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7,
                accuracyMeters: Double(try row.optionalInt("accuracy_m") ?? 0), capturedAt: at, source: source)
        } else {
            failure = LocationFailure(at: at, source: source)
        }
        return LocationRow(
            id: try row.string("id"), userID: try row.id("user_id"), incidentID: try row.optionalID("incident_id"), fix: fix,
            failure: failure, recordedAt: try row.date("recorded_at"))
    }
}
