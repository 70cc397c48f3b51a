import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Signing in and out, sessions and API tokens, changing the phone number, deleting the account.
public struct Accounts: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Accounts {
    static let signInPurpose = "sign_in"

    static let changePhonePurpose = "change_phone"

    /// Sends a 6-digit code by SMS (or, with `via: .voice`, by a call that reads it out).
    /// Limited per number and per client address, once a minute.
    /// The code is in the language of the account that signs in with the number, else in
    /// `language` (the page's or the app's), else English.
    public func requestSignInCode(
        phone rawPhone: String, clientAddress: String, via: CodeChannel = .sms, language: Language? = nil
    ) async throws -> CodeRequest {
        let phone = try validated { try Validation.phone(rawPhone) }
        return try await sendCode(
            phone: phone, purpose: Self.signInPurpose, userID: nil, clientAddress: clientAddress, via: via, language: language)
    }

    /// Checks the code; creates the account on first sign-in; returns a new session token.
    public func verifySignInCode(phone rawPhone: String, code rawCode: String, deviceName: String) async throws -> SignIn {
        let phone = try validated { try Validation.phone(rawPhone) }
        let code = try validated { try Validation.code(rawCode) }
        let token = newToken()
        let now = core.now
        // A wrong code must still count against the attempts, so that transaction commits
        // and the failure is returned as a value rather than thrown (which would roll back).
        return try await core.write { tx, _ -> Result<SignIn, ServiceError> in
            if let wrong = try await consumeCode(phone: phone, purpose: Self.signInPurpose, code: code, tx: tx) {
                return .failure(wrong)
            }
            var isNew = false
            var user = try await tx.people.user(phone: phone)
            if user == nil {
                let created = User(id: core.newID(), phone: phone, createdAt: now, contactCode: core.newContactCode())
                try await tx.people.insert(created, deadline: Deadline.of(created), nextActionAt: nil)
                try await tx.timeline.append(created.id, at: now, summary: "Account created", AccountCreated())
                user = created
                isNew = true
            }
            let session = Session(
                id: core.newID(), userID: user!.id, kind: .session, name: Text.clipped(deviceName, characters: 100, bytes: 400),
                createdAt: now, lastUsedAt: now)
            try await tx.sessions.insert(session, tokenHash: Secrets.sha256Hex(token))
            return .success(SignIn(token: token, session: session, user: user!, isNewUser: isNew))
        }.get()
    }

    /// What a bearer token proves, or `unauthorized`. A database that cannot be reached is
    /// `unavailable`, never `unauthorized`: nobody is signed out by an outage.
    public func authenticate(token: String) async throws -> Credential {
        guard !token.isEmpty, token.count < 200 else { throw ServiceError.unauthorized }
        let hash = Secrets.sha256Hex(token)
        let found: SignedInSession?
        do {
            found = try await core.store.sessionWithUser(tokenHash: hash)
        } catch {
            throw ServiceError.from(error)
        }
        guard let found else { throw ServiceError.unauthorized }
        let caller = Credential(user: found.user, session: found.session)
        // A token past its date, or a sign-in left unused too long, no longer opens anything.
        if hasEnded(caller.session) {
            let (id, owner) = (caller.session.id, caller.user.id)
            _ = try? await core.store.write { try await $0.sessions.delete(id, of: owner) }
            throw ServiceError.unauthorized
        }
        if core.now.timeIntervalSince(caller.session.lastUsedAt) > 60 {
            let now = core.now
            _ = try? await core.store.write { try await $0.sessions.touch(caller.session.id, at: now) }
        }
        return caller
    }

    /// The caller's live sessions and tokens (ended ones no longer open anything, so they are not listed).
    public func sessions(_ caller: Caller) async throws -> [Session] {
        try await core.read { try await $0.sessions.all(of: caller.user.id) }.filter { !hasEnded($0) }
    }

    /// A token past its date, or a sign-in left unused longer than the idle limit.
    func hasEnded(_ session: Session) -> Bool {
        (session.kind == .session && core.now.timeIntervalSince(session.lastUsedAt) > core.configuration.sessionIdleLimit)
            || session.expiresAt.map { $0 <= core.now } == true
    }

    /// Revokes one of the caller's sessions or API tokens (their own current one signs them out).
    /// Only a sign-in may end another session: a leaked token cannot sign its owner out.
    public func revokeSession(_ caller: Caller, id: SessionID) async throws {
        if id != caller.session.id {
            try caller.requireSignIn(now: core.now, Said("error.endOtherSessions"))
        }
        let deleted = try await core.write { tx, _ in try await tx.sessions.delete(id, of: caller.user.id) }
        guard deleted else { throw ServiceError(.notFound, code: .sessionNotFound, Said("error.sessionNotFound")) }
    }

    public func signOut(_ caller: Caller) async throws {
        try await revokeSession(caller, id: caller.session.id)
    }

    /// A personal API token for scripts and integrations; the secret is shown only now.
    public func createAPIToken(
        _ caller: Caller, name rawName: String, scope: Session.Scope = .checkIn, expiresAt: Date? = nil
    ) async throws -> SignIn {
        guard let name = Validation.label(rawName) else {
            throw ServiceError.invalid(field: "name", Said("error.tokenName"))
        }
        if let expiresAt, expiresAt <= core.now || expiresAt > core.now.addingTimeInterval(366 * 86_400) {
            throw ServiceError.invalid(field: "expiresAt", Said("error.tokenExpiry"))
        }
        try caller.requireSignIn(now: core.now, Said("error.tokenByToken"))
        let token = newToken(.apiToken)
        let session = Session(
            id: core.newID(), userID: caller.user.id, kind: .apiToken, name: name, createdAt: core.now, lastUsedAt: core.now,
            scope: scope, expiresAt: expiresAt)
        try await core.write { tx, _ in try await tx.sessions.insert(session, tokenHash: Secrets.sha256Hex(token)) }
        return SignIn(token: token, session: session, user: caller.user, isNewUser: false)
    }

    /// Sends a code to a new number; the number changes when the code comes back.
    public func requestPhoneChange(_ caller: Caller, phone rawPhone: String, clientAddress: String) async throws -> CodeRequest {
        let phone = try validated { try Validation.phone(rawPhone) }
        guard phone != caller.user.phone else {
            throw ServiceError.invalid(field: "phone", Said("error.sameNumber"))
        }
        // Whoever holds a session must prove it is still them: a recent sign-in on this device.
        try caller.requireSignIn(
            within: core.configuration.recentSignIn, now: core.now, Said("error.recentSignInPhone"))
        // Counted before the lookup, so this cannot be looped to learn which numbers have accounts.
        try await core.write { tx, _ in
            try await core.enforceLimit(
                core.configuration.limits.phoneChanges, refusal: .tooManyPhoneChanges, sender: caller.user.id, recipient: nil,
                message: Said("error.tooManyNumbers"), tx: tx)
        }
        if try await core.read({ try await $0.people.user(phone: phone) }) != nil {
            throw ServiceError(.conflict, code: .phoneTaken, Said("error.phoneTaken"))
        }
        return try await sendCode(
            phone: phone, purpose: Self.changePhonePurpose, userID: caller.user.id, clientAddress: clientAddress,
            language: caller.user.language.flatMap { Language($0) })
    }

    public func confirmPhoneChange(_ caller: Caller, phone rawPhone: String, code rawCode: String) async throws -> User {
        let phone = try validated { try Validation.phone(rawPhone) }
        let code = try validated { try Validation.code(rawCode) }
        let now = core.now
        return try await core.write { tx, events -> Result<User, ServiceError> in
            guard let pending = try await tx.sessions.pendingCode(phone: phone, purpose: Self.changePhonePurpose),
                pending.userID == caller.user.id
            else { throw Self.codeExpired }
            if let wrong = try await consumeCode(phone: phone, purpose: Self.changePhonePurpose, code: code, tx: tx) {
                return .failure(wrong)
            }
            if try await tx.people.user(phone: phone) != nil {
                throw ServiceError(.conflict, code: .phoneTaken, Said("error.phoneTaken"))
            }
            guard var user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            // The old number hears of it (the draft keeps the old record, so its SMS goes there),
            // and every other session ends: a stolen session cannot keep the account.
            try await core.notify(
                NotificationDraft(recipient: user.id, kind: .roleChanged, subject: user.id, knownRecipient: user) { [phone] w in
                    (w("number.changed.title"), w("number.changed.body", ["digits": String(phone.suffix(4))]))
                },
                tx: tx, events: events)
            let oldPhone = user.phone
            user.phone = phone
            try await core.save(user, tx: tx)
            // The old number may go to someone else (or stay with whoever the person left): it
            // no longer reaches them, nor speaks for them by text, until they prove it again.
            try await tx.channels.unproveNumberChannels(of: user.id, address: oldPhone)
            try await tx.sessions.deleteAll(of: user.id, except: caller.session.id)
            try await tx.timeline.append(user.id, at: now, summary: "Phone number changed", PhoneChanged())
            return .success(user)
        }.get()
    }

    /// Deletes the account: links on both sides, pings, notifications, history, sessions. Only
    /// from a sign-in less than an hour old: an unlocked phone left on a table, or a token,
    /// cannot erase someone's safety net.
    public func deleteAccount(_ caller: Caller) async throws {
        try caller.requireSignIn(
            within: core.configuration.recentSignIn, now: core.now, Said("error.recentSignInDelete"))
        try await core.write { tx, events in
            let contacts = try await tx.links.all(of: caller.user.id).map(\.contactID)
            if let user = try await tx.people.user(caller.user.id) { try await core.eraseFromOthersNotifications(user, tx: tx) }
            try await tx.people.delete(caller.user.id)
            events.add(.contactsChanged, to: contacts)
        }
    }

    // MARK: - Codes

    static let codeExpired = ServiceError(
        .invalid, code: .codeExpired, Said("error.codeExpired"), field: "code")

    /// Sends a code in three steps, so that parallel requests cannot get past a limit and a code
    /// the provider could not take costs the person nothing: (1) in one transaction, the resend
    /// slot, the destination and every limit (per number, per client address, the whole
    /// service's hourly budget) are checked and one place in each is reserved, with the code
    /// saved; (2) it is sent, outside any transaction; (3) when sending fails, the places are
    /// given back and the code saved in (1) is put back as it was.
    private func sendCode(
        phone: String, purpose: String, userID: UserID?, clientAddress: String, via: CodeChannel = .sms, language: Language?
    ) async throws -> CodeRequest {
        let code = String(format: "%06d", core.environment.randomInt(below: 1_000_000))
        let now = core.now
        let config = core.configuration
        if let refusal = config.codeDestinations.refusal(for: phone) {
            throw ServiceError(.invalid, code: .phoneNotServed, refusal, field: "phone")
        }
        let buckets: [(bucket: String, limit: Int)] = [
            ("code:phone:\(phone)", config.codeRequestsPerPhonePerHour),
            ("code:addr:\(clientAddress)", config.codeRequestsPerAddressPerHour),
            ("code:all", config.codesPerHour),
        ]
        let expires = now.addingTimeInterval(config.codeLifetime)
        let saved = PendingCode(
            phone: phone, purpose: purpose, userID: userID, codeHash: codeHash(phone: phone, code: code),
            createdAt: now, expiresAt: expires, attempts: 0, lastSentAt: now)
        // (1) Reserve: every hit is counted before the send; a refusal rolls all of them back.
        let canCall = core.codeSender.canCall
        let (previous, via, reader) = try await core.write { tx, _ -> (PendingCode?, CodeChannel, Language) in
            let pending = try await tx.sessions.pendingCode(phone: phone, purpose: purpose)
            if let pending, pending.lastSentAt.addingTimeInterval(config.codeResendAfter) > now {
                let wait = Int(pending.lastSentAt.addingTimeInterval(config.codeResendAfter).timeIntervalSince(now).rounded(.up))
                throw ServiceError(
                    .rateLimited, code: .codeRecentlySent, Said("error.codeRecentlySent", ["seconds": String(wait)]),
                    retryAfter: wait)
            }
            for (bucket, limit) in buckets where try await tx.rateLimits.hit(bucket: bucket, now: now, window: 3600) > limit {
                let windowEnd = (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600 + 3600
                throw ServiceError(
                    .rateLimited, code: .tooManyCodeRequests,
                    Said("error.tooManyCodes"),
                    retryAfter: max(1, Int((windowEnd - now.timeIntervalSince1970).rounded(.up))))
            }
            // A number that texted STOP is not texted again until it says START: a call
            // reads the code out instead where calls are possible.
            var via = via
            if via == .sms, try await tx.channels.phoneNumberState(phone).optedOutAt != nil {
                guard canCall else { throw Self.numberStopped }
                via = .voice
            }
            try await tx.sessions.savePendingCode(saved)
            // Someone who signs in with the number reads the code in their own language.
            let own = userID == nil ? try await tx.people.user(phone: phone)?.language.flatMap { Language($0) } : nil
            return (pending, via, own ?? language ?? .english)
        }
        // (2) Send.
        do {
            try await deliverCode(code, to: phone, via: via, language: reader)
        } catch {
            // (3) Give the places back, and put back what was there unless someone else's
            // request has replaced it since.
            _ = try? await core.write { tx, _ in
                for (bucket, _) in buckets { try await tx.rateLimits.release(bucket: bucket, now: now, window: 3600) }
                guard try await tx.sessions.pendingCode(phone: phone, purpose: purpose)?.codeHash == saved.codeHash else { return }
                if let previous {
                    try await tx.sessions.savePendingCode(previous)
                } else {
                    try await tx.sessions.deletePendingCode(phone: phone, purpose: purpose)
                }
            }
            throw error
        }
        return CodeRequest(phone: phone, expiresAt: expires, resendAfter: now.addingTimeInterval(config.codeResendAfter))
    }

    /// A code as stored: keyed with the server's secret, so a copy of the database alone cannot
    /// try the million codes against it offline.
    func codeHash(phone: String, code: String) -> String {
        Secrets.hmacHex(key: core.configuration.serverKey, "code:\(phone):\(code)")
    }

    /// A text, falling back to a call when the number can't take texts (a landline); or a call
    /// when asked. The provider's failure becomes a message for the person; the operator's log
    /// gets the provider's reason, never the code.
    private func deliverCode(_ code: String, to phone: String, via: CodeChannel, language: Language) async throws {
        func reason(_ error: any Error) -> String { (error as? CodeSendFailure)?.reason ?? "\(error)" }
        if via == .voice {
            do {
                try await core.codeSender.send(phone, code, .voice, language)
            } catch {
                core.logger.warning("a code call could not be placed", metadata: ["reason": "\(reason(error))"])
                throw Self.callFailed
            }
            return
        }
        do {
            try await core.codeSender.send(phone, code, .sms, language)
        } catch {
            core.logger.warning("a code text could not be sent", metadata: ["reason": "\(reason(error))"])
            guard core.codeSender.canCall, (error as? CodeSendFailure)?.permanent == true else { throw Self.textFailed }
            do {
                try await core.codeSender.send(phone, code, .voice, language)
            } catch {
                core.logger.warning("the code call after a refused text failed too", metadata: ["reason": "\(reason(error))"])
                throw Self.textAndCallFailed
            }
        }
    }

    static let numberStopped = ServiceError(
        .unavailable, code: .codeNotSent,
        Said("error.numberStopped"))

    public static let textFailed = ServiceError(
        .unavailable, code: .codeNotSent, Said("error.textFailed"))

    public static let callFailed = ServiceError(
        .unavailable, code: .codeNotSent, Said("error.callFailed"))

    public static let textAndCallFailed = ServiceError(
        .unavailable, code: .codeNotSent, Said("error.textAndCallFailed"))

    /// Checks a code inside the caller's transaction. Every check, right or wrong, first claims
    /// one of the code's 5 attempts in one atomic statement, so parallel guesses cannot get past
    /// the limit. Returns the error for a wrong code (the attempt stays counted when the caller
    /// commits), nil when it matched (the code is used up).
    private func consumeCode(phone: String, purpose: String, code: String, tx: StoreTransaction) async throws -> ServiceError? {
        let limit = core.configuration.codeAttempts
        // A new code asked for while this one is valid keeps its count, hence the wait.
        let minutes = max(1, Int((core.configuration.codeLifetime / 60).rounded(.up)))
        let tooManyAttempts = Said("error.tooManyAttempts", count: minutes)
        guard let pending = try await tx.sessions.claimCodeAttempt(phone: phone, purpose: purpose, limit: limit, now: core.now) else {
            if let existing = try await tx.sessions.pendingCode(phone: phone, purpose: purpose), existing.expiresAt > core.now {
                throw ServiceError(.invalid, code: .tooManyAttempts, tooManyAttempts, field: "code")
            }
            throw Self.codeExpired
        }
        if Secrets.constantTimeEquals(pending.codeHash, codeHash(phone: phone, code: code)) {
            try await tx.sessions.deletePendingCode(phone: phone, purpose: purpose)
            return nil
        }
        let left = limit - pending.attempts
        return ServiceError(
            .invalid, code: .wrongCode,
            left > 0 ? Said("error.wrongCode", count: left) : tooManyAttempts,
            field: "code")
    }

    /// A new bearer secret. API tokens carry a prefix of their own (`lsk_`, a sign-in `ls_`), so a
    /// leaked one is recognisable in a log, a paste or a secret scanner's rules.
    func newToken(_ kind: Session.Kind = .session) -> String {
        Self.tokenPrefix(kind) + Secrets.base64URL(core.environment.randomBytes(32))
    }

    public static func tokenPrefix(_ kind: Session.Kind) -> String { kind == .apiToken ? "lsk_" : "ls_" }
}

/// A new sign-in: the bearer token (shown once) and who it belongs to.
public struct SignIn: Sendable, Hashable {
    public var token: String
    public var session: Session
    public var user: User
    public var isNewUser: Bool
}

extension ServiceCore {
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
