import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Throws `.constraint` when the sender already has a pending request to the recipient.
    public func insertContactRequest(_ request: ContactRequest) async throws {
        try await db.execute(
            """
            INSERT INTO contact_requests (id, from_user_id, to_user_id, roles, state, created_at, decided_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            request.id, request.fromUserID, request.toUserID, request.roles.rawValue, request.state.rawValue,
            request.createdAt, request.decidedAt)
    }

    public func contactRequest(_ id: ContactRequestID) async throws -> ContactRequest? {
        try await db.queryFirst("SELECT \(Self.requestColumns) FROM contact_requests r \(Self.requestNames) WHERE r.id = ?", id)
            .map(Self.decodeContactRequest)
    }

    public func pendingContactRequest(from: UserID, to: UserID) async throws -> ContactRequest? {
        try await db.queryFirst(
            """
            SELECT \(Self.requestColumns) FROM contact_requests r \(Self.requestNames)
            WHERE r.from_user_id = ? AND r.to_user_id = ? AND r.state = 'pending'
            """, from, to
        ).map(Self.decodeContactRequest)
    }

    /// Requests sent to or by `userID`: every pending one, then the newest decided ones
    /// (at most `decidedLimit`), newest first.
    public func contactRequests(involving userID: UserID, decidedLimit: Int = 20) async throws -> [ContactRequest] {
        let pending = try await db.query(
            """
            SELECT \(Self.requestColumns) FROM contact_requests r \(Self.requestNames)
            WHERE (r.to_user_id = ? OR r.from_user_id = ?) AND r.state = 'pending' ORDER BY r.created_at DESC
            """, userID, userID
        ).map(Self.decodeContactRequest)
        let decided = try await db.query(
            """
            SELECT \(Self.requestColumns) FROM contact_requests r \(Self.requestNames)
            WHERE (r.to_user_id = ? OR r.from_user_id = ?) AND r.state <> 'pending'
            ORDER BY r.decided_at DESC LIMIT ?
            """, userID, userID, decidedLimit
        ).map(Self.decodeContactRequest)
        return pending + decided
    }

    /// Decides a pending request; false when it was no longer pending.
    public func decideContactRequest(_ id: ContactRequestID, state: ContactRequest.State, at: Date) async throws -> Bool {
        try await db.execute(
            "UPDATE contact_requests SET state = ?, decided_at = ? WHERE id = ? AND state = 'pending'",
            state.rawValue, at, id) > 0
    }

    /// When `from` last had a request to `to` declined, if ever.
    public func lastDeclinedContactRequest(from: UserID, to: UserID) async throws -> Date? {
        try await db.queryFirst(
            """
            SELECT MAX(decided_at) AS at FROM contact_requests
            WHERE from_user_id = ? AND to_user_id = ? AND state = 'declined'
            """, from, to
        )?.optionalDate("at")
    }

    /// Sides of links made before consent existed whose owner has not yet been told what the link grants.
    public func linksDueConsentNotice(limit: Int) async throws -> [LinkRecord] {
        try await db.query(
            "SELECT * FROM links WHERE consent_notice_due = 1 ORDER BY user_id, contact_id LIMIT ?", limit
        ).map(Self.decodeLink)
    }

    public func clearConsentNotice(userID: UserID, contactID: UserID) async throws {
        try await db.execute(
            "UPDATE links SET consent_notice_due = 0 WHERE user_id = ? AND contact_id = ?", userID, contactID)
    }

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
