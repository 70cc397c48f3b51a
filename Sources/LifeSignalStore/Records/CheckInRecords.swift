import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Records a check-in once: false when this user already sent this id.
    public func insertCheckIn(_ checkIn: CheckIn) async throws -> Bool {
        try await db.execute(
            """
            INSERT INTO check_ins (user_id, id, at, client_at, source, recorded_by, device)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, id) DO NOTHING
            """,
            checkIn.userID, checkIn.id, checkIn.at, checkIn.clientAt, checkIn.source.rawValue,
            checkIn.recordedBy, checkIn.device) > 0
    }

    public func checkIn(_ id: CheckInID, of userID: UserID) async throws -> CheckIn? {
        try await db.queryFirst("SELECT * FROM check_ins WHERE user_id = ? AND id = ?", userID, id)
            .map(Self.decodeCheckIn)
    }

    /// Newest first; `before` pages backwards.
    public func checkIns(of userID: UserID, before: Date?, limit: Int) async throws -> [CheckIn] {
        try await db.query(
            "SELECT * FROM check_ins WHERE user_id = ? AND at < ? ORDER BY at DESC LIMIT ?",
            userID, before ?? Date.distantFuture, limit
        ).map(Self.decodeCheckIn)
    }

    /// Oldest first, a page at a time: those after the last page's last check-in. Keyed by
    /// (`at`, `id`), so check-ins recorded in the same instant are neither lost nor repeated
    /// at a page's edge (paging by time alone would).
    public func checkIns(of userID: UserID, after last: CheckIn?, limit: Int) async throws -> [CheckIn] {
        guard let last else {
            return try await db.query(
                "SELECT * FROM check_ins WHERE user_id = ? ORDER BY at, id LIMIT ?", userID, limit
            ).map(Self.decodeCheckIn)
        }
        return try await db.query(
            "SELECT * FROM check_ins WHERE user_id = ? AND (at > ? OR (at = ? AND id > ?)) ORDER BY at, id LIMIT ?",
            userID, last.at, last.at, last.id, limit
        ).map(Self.decodeCheckIn)
    }

    static func decodeCheckIn(_ row: SQLRow) throws -> CheckIn {
        CheckIn(
            id: try row.id("id"), userID: try row.id("user_id"), at: try row.date("at"),
            clientAt: try row.optionalDate("client_at"),
            source: try row.value("source", as: CheckIn.Source.self),
            recordedBy: try row.optionalID("recorded_by"), device: try row.optionalString("device"))
    }
}
