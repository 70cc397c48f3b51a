import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// Sign-in with a phone number and an SMS code; sessions and API tokens.
struct AuthController {
    let service: LifeSignalService

    func addPublicRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.on(Operations.requestSignInCode) { request, context in
            let body = try await request.decode(as: CodeRequestBody.self, context: context)
            let via: CodeChannel
            switch body.via {
            case nil, "sms": via = .sms
            case "voice": via = .voice
            default: throw ServiceError.invalid(field: "via", "Ask for the code by “sms” or “voice”.")
            }
            return try await service.requestSignInCode(phone: body.phone, clientAddress: context.clientAddress, via: via)
                .json()
        }
        router.on(Operations.verifySignInCode) { request, context in
            let body = try await request.decode(as: VerifyCodeBody.self, context: context)
            let device = body.deviceName ?? request.headers[.userAgent].map { String($0.prefix(80)) } ?? "Unknown device"
            let signIn = try await service.verifySignInCode(phone: body.phone, code: body.code, deviceName: device)
            return JSON(TokenResponse(signIn), status: .created)
        }
    }

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.signOut) { _, context in
            try await service.signOut(context.caller)
            return NoContent()
        }
        router.on(Operations.listSessions) { _, context in
            try await service.sessions(context.caller).json()
        }
        router.on(Operations.revokeSession) { _, context in
            try await service.revokeSession(context.caller, id: try context.id())
            return NoContent()
        }
        router.on(Operations.createAPIToken) { request, context in
            let body = try await request.decode(as: TokenNameBody.self, context: context)
            let signIn = try await service.createAPIToken(
                context.caller, name: body.name, scope: body.scope ?? .checkIn, expiresAt: body.expiresAt)
            return JSON(TokenResponse(signIn), status: .created)
        }
    }
}

/// `PhoneBody` with an optional `"via": "voice"`: a call that reads the code out (landlines).
struct CodeRequestBody: Decodable {
    var phone: String
    var via: String?
}

extension TokenResponse {
    init(_ signIn: SignIn) {
        self.init(token: signIn.token, session: signIn.session, user: signIn.user, isNewUser: signIn.isNewUser)
    }
}

extension Encodable {
    func json(_ status: HTTPResponse.Status = .ok) -> JSON<Self> { JSON(self, status: status) }
}
