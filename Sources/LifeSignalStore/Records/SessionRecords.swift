import Foundation
import LifeSignalModels

extension StoreTransaction {
    /// Sessions and the one-time codes that open them: signing in and staying signed in.
    public struct Sessions: Sendable {
        let tx: StoreTransaction
    }

    public var sessions: Sessions { Sessions(tx: self) }
}

/// A session a token opens, with its person.
public struct SignedInSession: Sendable, Hashable {
    public var session: Session
    public var user: User
}

extension StoreTransaction.Sessions {
    public func insert(_ session: Session, tokenHash: String) async throws {
        try await tx.db.execute(
            """
            INSERT INTO sessions (id, user_id, kind, name, token_hash, created_at, last_used_at, scope, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            session.id, session.userID, session.kind.rawValue, session.name, tokenHash,
            session.createdAt, session.lastUsedAt, session.scope.rawValue, session.expiresAt)
    }

    /// The session a token opens and its person, in one statement: the read every request
    /// starts with (see `Store.sessionWithUser(tokenHash:)`).
    func sessionWithUser(tokenHash: String) async throws -> SignedInSession? {
        guard let row = try await tx.db.queryFirst(StoreTransaction.sessionWithUserSQL, tokenHash) else { return nil }
        return SignedInSession(
            session: try StoreTransaction.decodeSession(row, prefix: "session_"), user: try StoreTransaction.decodeUser(row))
    }

    public func all(of userID: UserID) async throws -> [Session] {
        try await tx.db.query(
            """
            SELECT id, user_id, kind, name, created_at, last_used_at, scope, expires_at FROM sessions
            WHERE user_id = ? ORDER BY created_at DESC
            """, userID
        ).map(StoreTransaction.decodeSession)
    }

    /// Records use at most once a minute, so reads stay cheap for chatty clients.
    public func touch(_ id: SessionID, at: Date) async throws {
        try await tx.db.execute(
            "UPDATE sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?",
            at, id, at.addingTimeInterval(-60))
    }

    /// Deletes one session of the user; false when there was none.
    @discardableResult
    public func delete(_ id: SessionID, of userID: UserID) async throws -> Bool {
        try await tx.db.execute("DELETE FROM sessions WHERE id = ? AND user_id = ?", id, userID) > 0
    }

    /// Ends every session of `userID` but `keep` (after the phone number changed).
    @discardableResult
    public func deleteAll(of userID: UserID, except keep: SessionID) async throws -> Int {
        try await tx.db.execute("DELETE FROM sessions WHERE user_id = ? AND id <> ?", userID, keep)
    }
}

extension StoreTransaction {
    /// The user's columns under their own names, the session's under `session_…` (both tables
    /// have `id` and `created_at`).
    static let sessionWithUserSQL =
        """
        SELECT s.id AS session_id, s.user_id AS session_user_id, s.kind AS session_kind, s.name AS session_name,
        s.created_at AS session_created_at, s.last_used_at AS session_last_used_at, s.scope AS session_scope,
        s.expires_at AS session_expires_at,
        """
        + userColumns.split(separator: ",").map { " u." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ",")
        + " FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?"

    static func decodeSession(_ row: SQLRow) throws -> Session { try decodeSession(row, prefix: "") }

    /// A session from columns named `<prefix>id`, `<prefix>kind`, ….
    static func decodeSession(_ row: SQLRow, prefix: String) throws -> Session {
        let kindText = try row.string(prefix + "kind")
        let scopeText = try row.string(prefix + "scope")
        guard let kind = Session.Kind(rawValue: kindText), let scope = Session.Scope(rawValue: scopeText) else {
            throw StoreError.decoding("sessions: kind \(kindText), scope \(scopeText)")
        }
        return Session(
            id: try row.id(prefix + "id"), userID: try row.id(prefix + "user_id"), kind: kind,
            name: try row.string(prefix + "name"), createdAt: try row.date(prefix + "created_at"),
            lastUsedAt: try row.date(prefix + "last_used_at"), scope: scope, expiresAt: try row.optionalDate(prefix + "expires_at"))
    }
}

/// A one-time code waiting to be entered.
public struct PendingCode: Sendable, Equatable {
    public var phone: String
    public var purpose: String
    public var userID: UserID?
    public var codeHash: String
    public var createdAt: Date
    public var expiresAt: Date
    public var attempts: Int
    public var lastSentAt: Date

    public init(
        phone: String, purpose: String, userID: UserID?, codeHash: String, createdAt: Date,
        expiresAt: Date, attempts: Int, lastSentAt: Date
    ) {
        self.phone = phone
        self.purpose = purpose
        self.userID = userID
        self.codeHash = codeHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.lastSentAt = lastSentAt
    }
}

extension StoreTransaction.Sessions {
    public func pendingCode(phone: String, purpose: String) async throws -> PendingCode? {
        try await tx.db.queryFirst(
            "SELECT * FROM sign_in_codes WHERE phone = ? AND purpose = ?", phone, purpose
        ).map(StoreTransaction.decodePendingCode)
    }

    /// Stores a newly sent code. A code sent while the previous one is still valid keeps the
    /// previous one's attempt count (`code.attempts` only starts a fresh count once it expired):
    /// asking for another code must not buy more guesses.
    public func savePendingCode(_ code: PendingCode) async throws {
        try await tx.db.execute(
            """
            INSERT INTO sign_in_codes (phone, purpose, user_id, code_hash, created_at, expires_at, attempts, last_sent_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (phone, purpose) DO UPDATE SET user_id = excluded.user_id,
                code_hash = excluded.code_hash, created_at = excluded.created_at,
                expires_at = excluded.expires_at,
                attempts = CASE WHEN sign_in_codes.expires_at > excluded.created_at
                    THEN sign_in_codes.attempts ELSE excluded.attempts END,
                last_sent_at = excluded.last_sent_at
            """,
            code.phone, code.purpose, code.userID, code.codeHash, code.createdAt, code.expiresAt,
            code.attempts, code.lastSentAt)
    }

    /// Counts one attempt at the pending code in a single statement, only while it is valid at
    /// `now` and has had fewer than `limit` attempts; returns the code with its new count, or
    /// nil when no attempt was left (or there is no valid code). Parallel guesses serialise on
    /// the row, so at most `limit` of them are ever counted and checked.
    public func claimCodeAttempt(phone: String, purpose: String, limit: Int, now: Date) async throws -> PendingCode? {
        try await tx.db.queryFirst(
            """
            UPDATE sign_in_codes SET attempts = attempts + 1
            WHERE phone = ? AND purpose = ? AND attempts < ? AND expires_at > ?
            RETURNING *
            """, phone, purpose, limit, now
        ).map(StoreTransaction.decodePendingCode)
    }

    public func deletePendingCode(phone: String, purpose: String) async throws {
        try await tx.db.execute("DELETE FROM sign_in_codes WHERE phone = ? AND purpose = ?", phone, purpose)
    }
}

extension StoreTransaction {
    static func decodePendingCode(_ row: SQLRow) throws -> PendingCode {
        PendingCode(
            phone: try row.string("phone"), purpose: try row.string("purpose"),
            userID: try row.optionalID("user_id"), codeHash: try row.string("code_hash"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"),
            attempts: try row.int("attempts"), lastSentAt: try row.date("last_sent_at"))
    }
}
