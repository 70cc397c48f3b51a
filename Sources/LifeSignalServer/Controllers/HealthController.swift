import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalStore

/// `GET /health`: 200 when the database answers, 503 when it doesn't.
struct HealthController {
    let service: LifeSignalService

    struct Health: Encodable {
        var status: String
        var database: Bool
        var engine: EngineHealth
    }

    struct Ready: Encodable {
        var ready: Bool
    }

    /// `/health`: the database answers and an escalation engine finished a pass in the last
    /// 30 seconds — what an outside monitor watches to know alerting has not stalled.
    /// `/ready`: this instance can serve requests (the database answers).
    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/health") { _, _ in
            let database = await service.store.database.ping()
            let engine = await service.engineHealth()
            let healthy = database && engine.healthy
            let status = !database ? "database unavailable" : !engine.healthy ? "escalation engine stalled" : "ok"
            return JSON(Health(status: status, database: database, engine: engine), status: healthy ? .ok : .serviceUnavailable)
        }
        router.get("/ready") { _, _ in
            let ready = await service.store.database.ping()
            return JSON(Ready(ready: ready), status: ready ? .ok : .serviceUnavailable)
        }
    }
}
