import Foundation
import LifeSignalModels

/// A verified sign-in. The bearer token itself stays in `TokenStorageClient`.
public struct SignInResult: Hashable, Sendable, Codable {
    public var user: User
    public var session: Session
    /// True when this phone number had no account yet: onboarding comes next.
    public var isNewUser: Bool

    public init(user: User, session: Session, isNewUser: Bool) {
        self.user = user
        self.session = session
        self.isNewUser = isNewUser
    }
}

/// A personal API token for scripts and integrations; `token` is shown only once.
public struct APIToken: Hashable, Sendable, Codable {
    public var token: String
    public var session: Session

    public init(token: String, session: Session) {
        self.token = token
        self.session = session
    }
}
