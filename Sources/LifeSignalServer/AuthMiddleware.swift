import Hummingbird
import LifeSignalAPI
import LifeSignalCore

/// Finds the caller behind `Authorization: Bearer <token>` and puts them in the context.
/// Routes that need a caller use `AuthenticatedContext`, which refuses a request without one.
struct AuthMiddleware: RouterMiddleware {
    let accounts: Accounts

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        // A missing, malformed or stale token leaves the caller empty: public routes (sign-in)
        // still work for an app holding an old token, and private ones answer 401.
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            do {
                context.caller = try await accounts.authenticate(token: token)
                RequestTrace.current?.userID = context.caller?.user.id
            } catch let error as ServiceError where error.kind == .unauthorized {
                context.caller = nil
            }
        }
        if context.caller?.session.scope == .checkIn, !Self.allowedToCheckInTokens(request) {
            throw ServiceError(
                .forbidden, code: .tokenScope, "This token can only check in and read your status. Use a full token for this.")
        }
        return try await next(request, context)
    }

    /// The only operations a `check_in` token may call.
    static let checkInScope: [Endpoint] = [Operations.checkIn.endpoint, Operations.getStatus.endpoint]

    static func allowedToCheckInTokens(_ request: Request) -> Bool {
        checkInScope.contains { $0.method.rawValue == request.method.rawValue && $0.path == request.uri.path }
    }
}
