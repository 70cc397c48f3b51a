import Foundation
import LifeSignalLanguage
import LifeSignalModels

/// What a bearer token proves: whose it is, and what kind of session stands behind it. It opens
/// only what every token may do — check in and read one's own status (``CheckIns``). Every other
/// use case takes a ``Caller``, which only ``caller()`` makes, so a check-in token cannot reach
/// them whatever door it comes through: the API, the web, the CLI or a test.
public struct Credential: Sendable, Hashable {
    public let user: User
    public let session: Session

    init(user: User, session: Session) {
        self.user = user
        self.session = session
    }

    /// The caller for everything but checking in: a sign-in, or an API token with the full
    /// scope. A check-in token is refused (`token_scope`, 403).
    public func caller() throws -> Caller {
        guard session.scope == .full else { throw Self.checkInOnly }
        return Caller(user: user, session: session)
    }

    /// The caller only if this is a sign-in on a device, never an API token: what the web
    /// accepts in its cookie. A token of any scope is refused as `unauthorized`.
    public func signedInCaller() throws -> Caller {
        guard session.kind == .session else { throw ServiceError.unauthorized }
        return try caller()
    }

    static let checkInOnly = ServiceError(
        .forbidden, code: .tokenScope, Said("error.tokenScope"))
}

/// Whoever calls a use case that does more than check in: a sign-in session, or a full API
/// token. Only ``Credential/caller()`` makes one.
public struct Caller: Sendable, Hashable {
    public var user: User
    public var session: Session

    /// The same person as a credential (what ``CheckIns`` asks for).
    public var credential: Credential { Credential(user: user, session: session) }

    /// What only the person at a device they signed in on may do (new API tokens, signing other
    /// devices out, deleting the account): never a token, however full. With `within`, the
    /// sign-in must be that recent: whoever holds an old session proves it is still them.
    func requireSignIn(within: TimeInterval? = nil, now: Date, _ refusal: Said) throws {
        guard session.kind == .session, within.map({ now.timeIntervalSince(session.createdAt) <= $0 }) ?? true else {
            throw ServiceError(.forbidden, code: .signInAgain, refusal)
        }
    }
}
