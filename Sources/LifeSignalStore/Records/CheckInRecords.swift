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

    static func decodeCheckIn(_ row: SQLRow) throws -> CheckIn {
        CheckIn(
            id: try row.id("id"), userID: try row.id("user_id"), at: try row.date("at"),
            clientAt: try row.optionalDate("client_at"),
            source: try row.value("source", as: CheckIn.Source.self),
            recordedBy: try row.optionalID("recorded_by"), device: try row.optionalString("device"))
    }
}
