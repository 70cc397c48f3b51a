import Hummingbird
import LifeSignalAPI
import LifeSignalCore

/// Finds the caller behind `Authorization: Bearer <token>` and puts them in the context.
/// Routes that need a caller use `AuthenticatedContext` (a full caller) or `CredentialContext`
/// (any token: check in, own status), which refuse a request without one.
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
                context.credential = try await accounts.authenticate(token: token)
                RequestTrace.current?.userID = context.credential?.user.id
            } catch let error as ServiceError where error.kind == .unauthorized {
                context.credential = nil
            }
        }
        // What the token may do is the core's to say: a route that needs more than checking in
        // asks for a `Caller`, which a check-in token cannot become (`AuthenticatedContext`).
        return try await next(request, context)
    }
}
