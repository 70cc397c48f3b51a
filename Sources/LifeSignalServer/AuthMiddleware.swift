import Hummingbird
import LifeSignalCore

/// Finds the caller behind `Authorization: Bearer <token>` and puts them in the context.
/// Routes that need a caller use `AuthenticatedContext`, which refuses a request without one.
struct AuthMiddleware: RouterMiddleware {
    let service: LifeSignalService

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        if let header = request.headers[.authorization] {
            guard header.lowercased().hasPrefix("bearer ") else { throw ServiceError.unauthorized }
            context.caller = try await service.authenticate(token: String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        }
        return try await next(request, context)
    }
}
