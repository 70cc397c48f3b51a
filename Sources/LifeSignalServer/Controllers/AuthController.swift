import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels

/// Sign-in with a phone number and an SMS code; sessions and API tokens.
struct AuthController {
    let accounts: Accounts

    func addPublicRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.on(Operations.requestSignInCode) { body, request, context in
            let via: CodeChannel
            switch body.via {
            case nil, "sms": via = .sms
            case "voice": via = .voice
            default: throw ServiceError.invalid(field: "via", "Ask for the code by “sms” or “voice”.")
            }
            // A new number has no language yet: the code is in the one the app or browser asks for.
            let language = request.headers[.acceptLanguage].flatMap {
                Language.preferred(acceptLanguage: $0, shipped: Catalogue.bundled.languages)
            }
            return try await accounts.requestSignInCode(
                phone: APIPhone.normalized(body.phone), clientAddress: context.clientAddress, via: via, language: language)
        }
        router.on(Operations.verifySignInCode) { body, request, context in
            let device = body.deviceName ?? request.headers[.userAgent].map { String($0.prefix(80)) } ?? "Unknown device"
            let signIn = try await accounts.verifySignInCode(
                phone: APIPhone.normalized(body.phone), code: body.code, deviceName: device)
            return TokenResponse(signIn)
        }
    }

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.signOut) { _, context in
            try await accounts.signOut(context.caller)
        }
        router.on(Operations.listSessions) { _, context in
            try await accounts.sessions(context.caller)
        }
        router.on(Operations.revokeSession) { input, context in
            try await accounts.revokeSession(context.caller, id: input.id)
        }
        router.on(Operations.createAPIToken) { body, context in
            let signIn = try await accounts.createAPIToken(
                context.caller, name: body.name, scope: body.scope ?? .checkIn, expiresAt: body.expiresAt)
            return TokenResponse(signIn)
        }
    }
}

extension TokenResponse {
    init(_ signIn: SignIn) {
        self.init(token: signIn.token, session: signIn.session, user: signIn.user, isNewUser: signIn.isNewUser)
    }
}

extension Encodable {
    func json(_ status: HTTPResponse.Status = .ok) -> JSON<Self> { JSON(self, status: status) }
}
