import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalCore

/// Test mode only: read and move the server's clock, so browser tests can skip hours
/// without sleeping. Never registered unless the server was started with a test clock, which
/// `serve` (and `buildApplication`) refuse unless the server runs with `--dev` on a loopback
/// host: anyone who can reach these routes can fire false alarms for everyone.
struct TestClockController {
    let clock: ManualClock

    struct Advance: Codable {
        var seconds: Double
    }

    struct Now: Codable {
        var now: Date
    }

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/test/clock") { _, _ in JSON(Now(now: clock.now)) }
        router.post("/test/clock/advance") { request, context in
            let body = try await request.decode(as: Advance.self, context: context)
            guard body.seconds >= 0, body.seconds <= 90 * 86400 else {
                throw ServiceError.invalid(field: "seconds", "Move the clock forward by 0 to 90 days.")
            }
            clock.advance(by: body.seconds)
            return JSON(Now(now: clock.now))
        }
    }
}
