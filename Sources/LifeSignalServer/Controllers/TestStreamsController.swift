import Hummingbird
import LifeSignalCore

/// Test mode only (registered beside `TestClockController`, under the same guard): how many
/// live streams the caller holds open on this instance, so a browser test can tell that the
/// tabs of one browser share one stream. `Authorization: Bearer <token>` (a web session's
/// cookie value is such a token).
struct TestStreamsController {
    let hub: EventHub
    let accounts: Accounts

    struct Open: Codable {
        var open: Int
    }

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/test/streams") { request, _ in
            guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
                throw ServiceError.unauthorized
            }
            let credential = try await accounts.authenticate(token: String(header.dropFirst(7)))
            return JSON(Open(open: hub.subscriberCount(credential.user.id)))
        }
    }
}
