import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// Sign-in with a phone number and an SMS code, sessions and API tokens.
@DependencyClient
public struct AuthClient: Sendable {
    /// Sends a 6-digit code by SMS to `phone` (E.164).
    public var requestCode: @Sendable (_ phone: String) async throws -> CodeRequest
    /// Verifies the code, stores the new session's token and returns who signed in.
    public var verifyCode: @Sendable (_ phone: String, _ code: String) async throws -> SignInResult
    /// Ends this session on the server and forgets the stored token.
    public var signOut: @Sendable () async throws -> Void
    /// The signed-in person from a stored token; nil when there is none or it was revoked.
    public var restoreSession: @Sendable () async throws -> User?
    /// The person's sessions and API tokens.
    public var sessions: @Sendable () async throws -> [Session]
    /// Revokes one session or API token.
    public var revoke: @Sendable (_ id: SessionID) async throws -> Void
    /// Creates a personal API token named `name`; its secret is returned only here.
    public var createToken: @Sendable (_ name: String, _ scope: Session.Scope) async throws -> APIToken
}

extension AuthClient: TestDependencyKey {
    public static let testValue = AuthClient()

    public static let previewValue = AuthClient(
        requestCode: { phone in
            CodeRequest(phone: phone, expiresAt: Date().addingTimeInterval(300), resendAfter: Date().addingTimeInterval(60))
        },
        verifyCode: { _, _ in SignInResult(user: .preview, session: .preview, isNewUser: false) },
        signOut: {},
        restoreSession: { .preview },
        sessions: { [.preview] },
        revoke: { _ in },
        createToken: { name, scope in
            var session = Session.preview
            session.kind = .apiToken
            session.name = name
            session.scope = scope
            return APIToken(token: "ls_preview_token", session: session)
        }
    )
}

extension DependencyValues {
    public var authClient: AuthClient {
        get { self[AuthClient.self] }
        set { self[AuthClient.self] = newValue }
    }
}
