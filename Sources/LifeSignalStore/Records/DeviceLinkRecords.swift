import Foundation
import LifeSignalModels

/// A device link with the person it checks in.
public struct OwnedDeviceLink: Sendable, Hashable {
    public var link: DeviceLink
    public var userID: UserID
}

extension StoreTransaction {
    /// Device check-in links (secret addresses that can only check her in) and the activity of
    /// those that do not end an open missed check-in.
    public struct DeviceLinks: Sendable {
        let tx: StoreTransaction
    }

    public var deviceLinks: DeviceLinks { DeviceLinks(tx: self) }
}

extension StoreTransaction.DeviceLinks {
    public func insert(_ link: DeviceLink, of userID: UserID, secretHash: String) async throws {
        try await tx.db.execute(
            """
            INSERT INTO device_links (id, user_id, name, secret_hash, resolves_alerts, created_at, last_used_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            link.id, userID, link.name, secretHash, link.resolvesAlerts, link.createdAt, link.lastUsedAt)
    }

    /// The person's links, oldest first.
    public func all(of userID: UserID) async throws -> [DeviceLink] {
        try await tx.db.query(
            "SELECT \(StoreTransaction.deviceLinkColumns) FROM device_links WHERE user_id = ? ORDER BY created_at, id", userID
        ).map(StoreTransaction.decodeDeviceLink)
    }

    public func count(of userID: UserID) async throws -> Int {
        try await tx.db.queryFirst("SELECT COUNT(*) AS n FROM device_links WHERE user_id = ?", userID)?.int("n") ?? 0
    }

    /// Deletes one link of the person's; false when there was none.
    @discardableResult
    public func delete(_ id: DeviceLinkID, of userID: UserID) async throws -> Bool {
        try await tx.db.execute("DELETE FROM device_links WHERE id = ? AND user_id = ?", id, userID) > 0
    }

    /// The link a secret opens, and whose it is.
    public func deviceLink(secretHash: String) async throws -> OwnedDeviceLink? {
        guard
            let row = try await tx.db.queryFirst(
                "SELECT \(StoreTransaction.deviceLinkColumns), user_id FROM device_links WHERE secret_hash = ?", secretHash)
        else { return nil }
        return OwnedDeviceLink(link: try StoreTransaction.decodeDeviceLink(row), userID: try row.id("user_id"))
    }

    /// Marks the link used at `at` unless it counted less than `coalescing` seconds before:
    /// true when this call counts. One statement, so two calls racing on PostgreSQL cannot both
    /// count (the second re-reads the row the first updated, and its condition no longer holds).
    public func use(_ id: DeviceLinkID, at: Date, coalescing: TimeInterval) async throws -> Bool {
        try await tx.db.execute(
            "UPDATE device_links SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)",
            at, id, at.addingTimeInterval(-coalescing)) > 0
    }

    /// A link's call during an open missed check-in that did not end it.
    public func insertIncidentActivity(_ incidentID: IncidentID, _ activity: DeviceActivity) async throws {
        try await tx.db.execute(
            "INSERT INTO incident_activity (incident_id, at, device) VALUES (?, ?, ?)", incidentID, activity.at,
            activity.device)
    }

    /// Oldest first.
    public func incidentActivity(_ incidentID: IncidentID) async throws -> [DeviceActivity] {
        try await tx.db.query("SELECT at, device FROM incident_activity WHERE incident_id = ? ORDER BY at", incidentID).map {
            DeviceActivity(device: try $0.string("device"), at: try $0.date("at"))
        }
    }
}

extension StoreTransaction {
    static let deviceLinkColumns = "id, name, resolves_alerts, created_at, last_used_at"

    static func decodeDeviceLink(_ row: SQLRow) throws -> DeviceLink {
        DeviceLink(
            id: try row.id("id"), name: try row.string("name"), resolvesAlerts: try row.bool("resolves_alerts"),
            createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"))
    }
}
