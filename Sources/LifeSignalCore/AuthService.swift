import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// A new sign-in: the bearer token (shown once) and who it belongs to.
public struct SignIn: Sendable, Hashable {
    public var token: String
    public var session: Session
    public var user: User
    public var isNewUser: Bool
}

/// The caller behind a bearer token.
public struct Caller: Sendable, Hashable {
    public var user: User
    public var session: Session
}

extension LifeSignalService {
    static let signInPurpose = "sign_in"
    static let changePhonePurpose = "change_phone"

    /// Sends a 6-digit code by SMS. Limited per number and per client address, once a minute.
    public func requestSignInCode(phone rawPhone: String, clientAddress: String) async throws -> CodeRequest {
        let phone = try validated { try Validation.phone(rawPhone) }
        return try await sendCode(phone: phone, purpose: Self.signInPurpose, userID: nil, clientAddress: clientAddress)
    }

    /// Checks the code; creates the account on first sign-in; returns a new session token.
    public func verifySignInCode(phone rawPhone: String, code rawCode: String, deviceName: String) async throws -> SignIn {
        let phone = try validated { try Validation.phone(rawPhone) }
        let code = try validated { try Validation.code(rawCode) }
        let token = newToken()
        let now = self.now
        // A wrong code must still count against the attempts, so that transaction commits
        // and the failure is returned as a value rather than thrown (which would roll back).
        return try await write { tx, _ -> Result<SignIn, ServiceError> in
            if let wrong = try await consumeCode(phone: phone, purpose: Self.signInPurpose, code: code, tx: tx) {
                return .failure(wrong)
            }
            var isNew = false
            var user = try await tx.user(phone: phone)
            if user == nil {
                let created = User(id: newID(), phone: phone, createdAt: now, contactCode: newContactCode())
                try await tx.insertUser(created, deadline: Deadline.of(created), nextActionAt: nil)
                try await tx.appendTimeline(created.id, at: now, kind: "account_created", summary: "Account created", detail: "{}")
                user = created
                isNew = true
            }
            let session = Session(
                id: newID(), userID: user!.id, kind: .session, name: String(deviceName.prefix(100)),
                createdAt: now, lastUsedAt: now)
            try await tx.insertSession(session, tokenHash: Secrets.sha256Hex(token))
            return .success(SignIn(token: token, session: session, user: user!, isNewUser: isNew))
        }.get()
    }

    /// The caller behind a bearer token, or `unauthorized`.
    public func authenticate(token: String) async throws -> Caller {
        guard !token.isEmpty, token.count < 200 else { throw ServiceError.unauthorized }
        let hash = Secrets.sha256Hex(token)
        let found = try await read { tx -> Caller? in
            guard let session = try await tx.session(tokenHash: hash), let user = try await tx.user(session.userID)
            else { return nil }
            return Caller(user: user, session: session)
        }
        guard let caller = found else { throw ServiceError.unauthorized }
        if now.timeIntervalSince(caller.session.lastUsedAt) > 60 {
            let now = self.now
            _ = try? await store.write { try await $0.touchSession(caller.session.id, at: now) }
        }
        return caller
    }

    public func sessions(_ caller: Caller) async throws -> [Session] {
        try await read { try await $0.sessions(of: caller.user.id) }
    }

    /// Revokes one of the caller's sessions or API tokens (their own current one signs them out).
    public func revokeSession(_ caller: Caller, id: SessionID) async throws {
        let deleted = try await write { tx, _ in try await tx.deleteSession(id, of: caller.user.id) }
        guard deleted else { throw ServiceError(.notFound, code: "session_not_found", "That session doesn't exist.") }
    }

    public func signOut(_ caller: Caller) async throws {
        try await revokeSession(caller, id: caller.session.id)
    }

    /// A personal API token for scripts and integrations; the secret is shown only now.
    public func createAPIToken(_ caller: Caller, name rawName: String) async throws -> SignIn {
        let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...60).contains(name.count) else {
            throw ServiceError.invalid(field: "name", "Give the token a name of 1 to 60 characters.")
        }
        let token = newToken()
        let session = Session(
            id: newID(), userID: caller.user.id, kind: .apiToken, name: name, createdAt: now, lastUsedAt: now)
        try await write { tx, _ in try await tx.insertSession(session, tokenHash: Secrets.sha256Hex(token)) }
        return SignIn(token: token, session: session, user: caller.user, isNewUser: false)
    }

    /// Sends a code to a new number; the number changes when the code comes back.
    public func requestPhoneChange(_ caller: Caller, phone rawPhone: String, clientAddress: String) async throws -> CodeRequest {
        let phone = try validated { try Validation.phone(rawPhone) }
        guard phone != caller.user.phone else {
            throw ServiceError.invalid(field: "phone", "That is already your number.")
        }
        if try await read({ try await $0.user(phone: phone) }) != nil {
            throw ServiceError(.conflict, code: "phone_taken", "Another account uses that number.")
        }
        return try await sendCode(
            phone: phone, purpose: Self.changePhonePurpose, userID: caller.user.id, clientAddress: clientAddress)
    }

    public func confirmPhoneChange(_ caller: Caller, phone rawPhone: String, code rawCode: String) async throws -> User {
        let phone = try validated { try Validation.phone(rawPhone) }
        let code = try validated { try Validation.code(rawCode) }
        let now = self.now
        return try await write { tx, _ -> Result<User, ServiceError> in
            guard let pending = try await tx.pendingCode(phone: phone, purpose: Self.changePhonePurpose),
                pending.userID == caller.user.id
            else { throw Self.codeExpired }
            if let wrong = try await consumeCode(phone: phone, purpose: Self.changePhonePurpose, code: code, tx: tx) {
                return .failure(wrong)
            }
            if try await tx.user(phone: phone) != nil {
                throw ServiceError(.conflict, code: "phone_taken", "Another account uses that number.")
            }
            guard var user = try await tx.user(caller.user.id) else { throw ServiceError.unauthorized }
            user.phone = phone
            try await save(user, tx: tx)
            try await tx.appendTimeline(user.id, at: now, kind: "phone_changed", summary: "Phone number changed", detail: "{}")
            return .success(user)
        }.get()
    }

    /// Deletes the account: links on both sides, pings, notifications, history, sessions.
    public func deleteAccount(_ caller: Caller) async throws {
        try await write { tx, events in
            let contacts = try await tx.links(of: caller.user.id).map(\.contactID)
            if let user = try await tx.user(caller.user.id) { try await eraseFromOthersNotifications(user, tx: tx) }
            try await tx.deleteUser(caller.user.id)
            events.add(.contactsChanged, to: contacts)
        }
    }

    // MARK: - Codes

    static let codeExpired = ServiceError(
        .invalid, code: "code_expired", "That code has expired. Ask for a new one.", field: "code")

    private func sendCode(phone: String, purpose: String, userID: UserID?, clientAddress: String) async throws -> CodeRequest {
        let code = String(format: "%06d", environment.randomInt(below: 1_000_000))
        let now = self.now
        let config = configuration
        let request = try await write { tx, _ -> CodeRequest in
            if let pending = try await tx.pendingCode(phone: phone, purpose: purpose),
                pending.lastSentAt.addingTimeInterval(config.codeResendAfter) > now
            {
                let wait = Int(pending.lastSentAt.addingTimeInterval(config.codeResendAfter).timeIntervalSince(now).rounded(.up))
                throw ServiceError(
                    .rateLimited, code: "code_recently_sent", "We just sent a code. You can ask for another in \(wait) s.",
                    retryAfter: wait)
            }
            let perPhone = try await tx.hitRateLimit(bucket: "code:phone:\(phone)", now: now, window: 3600)
            let perAddress = try await tx.hitRateLimit(bucket: "code:addr:\(clientAddress)", now: now, window: 3600)
            if perPhone > config.codeRequestsPerPhonePerHour || perAddress > config.codeRequestsPerAddressPerHour {
                throw ServiceError(
                    .rateLimited, code: "too_many_code_requests",
                    "Too many codes were asked for. Please wait an hour and try again.", retryAfter: 3600)
            }
            let expires = now.addingTimeInterval(config.codeLifetime)
            try await tx.savePendingCode(
                PendingCode(
                    phone: phone, purpose: purpose, userID: userID, codeHash: Secrets.sha256Hex("\(phone):\(code)"),
                    createdAt: now, expiresAt: expires, attempts: 0, lastSentAt: now))
            return CodeRequest(phone: phone, expiresAt: expires, resendAfter: now.addingTimeInterval(config.codeResendAfter))
        }
        do {
            try await codeSender.send(phone, code)
        } catch {
            logger.error("sending the sign-in code failed", metadata: ["error": "\(error)"])
            throw ServiceError(.unavailable, code: "sms_failed", "We couldn't send the code by SMS. Please try again.")
        }
        return request
    }

    /// Checks a code inside the caller's transaction; wrong codes count against 5 attempts.
    /// Returns the error for a wrong code (after saving the attempt), nil when it matched.
    private func consumeCode(phone: String, purpose: String, code: String, tx: StoreTransaction) async throws -> ServiceError? {
        guard var pending = try await tx.pendingCode(phone: phone, purpose: purpose), pending.expiresAt > now else {
            throw Self.codeExpired
        }
        guard pending.attempts < configuration.codeAttempts else {
            throw ServiceError(.invalid, code: "too_many_attempts", "Too many wrong codes. Ask for a new one.", field: "code")
        }
        if Secrets.constantTimeEquals(pending.codeHash, Secrets.sha256Hex("\(phone):\(code)")) {
            try await tx.deletePendingCode(phone: phone, purpose: purpose)
            return nil
        }
        pending.attempts += 1
        try await tx.savePendingCode(pending)
        let left = configuration.codeAttempts - pending.attempts
        return ServiceError(
            .invalid, code: "wrong_code",
            left > 0 ? "That code isn't right. \(left) attempt\(left == 1 ? "" : "s") left." : "Too many wrong codes. Ask for a new one.",
            field: "code")
    }

    func newToken() -> String { "ls_" + Secrets.base64URL(environment.randomBytes(32)) }

    func newContactCode() -> String { Secrets.hex(environment.randomBytes(16)) }
}

/// Runs rule checks, turning a `ValidationError` into the service's `invalid` error.
func validated<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ValidationError {
        throw ServiceError.invalid(error)
    }
}
