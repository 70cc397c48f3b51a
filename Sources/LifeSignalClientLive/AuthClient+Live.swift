import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

extension AuthClient: DependencyKey {
    public static var liveValue: AuthClient { .live(api: .fromEnvironment(), tokens: .liveValue) }

    /// Sign-in over the API; the session token goes to `tokens`.
    public static func live(api: APIClient, tokens: TokenStorageClient, deviceName: String = "LifeSignal app") -> AuthClient {
        AuthClient(
            requestCode: { phone in
                try await api.send(Operations.requestSignInCode, body: SignInCodeBody(phone: phone))
            },
            verifyCode: { phone, code in
                let response: TokenResponse = try await api.send(
                    Operations.verifySignInCode, body: VerifyCodeBody(phone: phone, code: code, deviceName: deviceName))
                try tokens.save(response.token)
                return SignInResult(user: response.user, session: response.session, isNewUser: response.isNewUser)
            },
            signOut: {
                do {
                    try await api.send(Operations.signOut)
                } catch let error as APIError where error.isUnauthorized {
                    // Already signed out on the server (revoked, expired): forgetting it is all that is left.
                }
                try tokens.delete()
            },
            restoreSession: {
                guard try tokens.load() != nil else { return nil }
                do {
                    return try await api.send(Operations.getProfile) as User
                } catch let error as APIError where error.isUnauthorized {
                    try tokens.delete()
                    return nil
                }
            },
            sessions: { try await api.send(Operations.listSessions) },
            revoke: { id in try await api.send(Operations.revokeSession, ByID(id)) },
            createToken: { name, scope in
                let response: TokenResponse = try await api.send(
                    Operations.createAPIToken, body: TokenNameBody(name: name, scope: scope))
                return APIToken(token: response.token, session: response.session)
            }
        )
    }
}
