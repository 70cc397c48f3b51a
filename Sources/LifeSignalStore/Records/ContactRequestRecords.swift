import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Requests to become contacts: sent, decided, and when one was last declined.
    public struct ContactRequests: Sendable {
        let tx: StoreTransaction
    }

    public var contactRequests: ContactRequests { ContactRequests(tx: self) }
}

extension StoreTransaction.ContactRequests {
    /// Throws `.constraint` when the sender already has a pending request to the recipient.
    public func insert(_ request: ContactRequest) async throws {
        try await tx.db.execute(
            """
            INSERT INTO contact_requests (id, from_user_id, to_user_id, roles, state, created_at, decided_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            request.id, request.fromUserID, request.toUserID, request.roles.rawValue, request.state.rawValue,
            request.createdAt, request.decidedAt)
    }

    public func request(_ id: ContactRequestID) async throws -> ContactRequest? {
        try await tx.db.queryFirst(
            "SELECT \(StoreTransaction.requestColumns) FROM contact_requests r \(StoreTransaction.requestNames) WHERE r.id = ?", id
        )
        .map(StoreTransaction.decodeContactRequest)
    }

    public func pending(from: UserID, to: UserID) async throws -> ContactRequest? {
        try await tx.db.queryFirst(
            """
            SELECT \(StoreTransaction.requestColumns) FROM contact_requests r \(StoreTransaction.requestNames)
            WHERE r.from_user_id = ? AND r.to_user_id = ? AND r.state = 'pending'
            """, from, to
        ).map(StoreTransaction.decodeContactRequest)
    }

    /// Requests sent to or by `userID`: every pending one, then the newest decided ones
    /// (at most `decidedLimit`), newest first.
    public func all(involving userID: UserID, decidedLimit: Int = 20) async throws -> [ContactRequest] {
        let pending = try await tx.db.query(
            """
            SELECT \(StoreTransaction.requestColumns) FROM contact_requests r \(StoreTransaction.requestNames)
            WHERE (r.to_user_id = ? OR r.from_user_id = ?) AND r.state = 'pending' ORDER BY r.created_at DESC
            """, userID, userID
        ).map(StoreTransaction.decodeContactRequest)
        let decided = try await tx.db.query(
            """
            SELECT \(StoreTransaction.requestColumns) FROM contact_requests r \(StoreTransaction.requestNames)
            WHERE (r.to_user_id = ? OR r.from_user_id = ?) AND r.state <> 'pending'
            ORDER BY r.decided_at DESC LIMIT ?
            """, userID, userID, decidedLimit
        ).map(StoreTransaction.decodeContactRequest)
        return pending + decided
    }

    /// Decides a pending request; false when it was no longer pending.
    public func decide(_ id: ContactRequestID, state: ContactRequest.State, at: Date) async throws -> Bool {
        try await tx.db.execute(
            "UPDATE contact_requests SET state = ?, decided_at = ? WHERE id = ? AND state = 'pending'",
            state.rawValue, at, id) > 0
    }

    /// When `from` last had a request to `to` declined, if ever.
    public func lastDeclined(from: UserID, to: UserID) async throws -> Date? {
        try await tx.db.queryFirst(
            """
            SELECT MAX(decided_at) AS at FROM contact_requests
            WHERE from_user_id = ? AND to_user_id = ? AND state = 'declined'
            """, from, to
        )?.optionalDate("at")
    }
}

extension StoreTransaction {
    static let requestColumns = """
        r.id, r.from_user_id, r.to_user_id, r.roles, r.state, r.created_at, r.decided_at,
        f.first_name AS from_first, f.last_name AS from_last, t.first_name AS to_first, t.last_name AS to_last
        """
    static let requestNames = "JOIN users f ON f.id = r.from_user_id JOIN users t ON t.id = r.to_user_id"

    static func decodeContactRequest(_ row: SQLRow) throws -> ContactRequest {
        ContactRequest(
            id: try row.id("id"), fromUserID: try row.id("from_user_id"), toUserID: try row.id("to_user_id"),
            roles: ContactRoles(rawValue: try row.int("roles")), state: try row.value("state"), createdAt: try row.date("created_at"),
            decidedAt: try row.optionalDate("decided_at"),
            fromName: User.fullName(firstName: try row.string("from_first"), lastName: try row.string("from_last")),
            toName: User.fullName(firstName: try row.string("to_first"), lastName: try row.string("to_last")))
    }
}
