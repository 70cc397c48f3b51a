import Foundation
import Hummingbird
import LifeSignalCore

/// `GET /health`: 200 when the database answers, 503 when it doesn't.
struct HealthController {
    let service: LifeSignalService

    struct Health: Encodable {
        var status: String
        var database: Bool
    }

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/health") { _, _ in
            let database = await service.store.database.ping()
            return JSON(Health(status: database ? "ok" : "unavailable", database: database), status: database ? .ok : .serviceUnavailable)
        }
    }
}
