import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalStore

/// `GET /health`: 200 when the database answers, the engine runs and deliveries go out; 503
/// with the reason when not.
struct HealthController {
    let health: Health
    var deliveryStallSeconds: TimeInterval = 120

    struct Report: Encodable {
        var status: String
        var database: Bool
        var engine: EngineHealth
        var delivery: DeliveryHealth
    }

    struct Ready: Encodable {
        var ready: Bool
    }

    /// `/health`: the database answers, an escalation engine finished a pass in the last
    /// 30 seconds, no due delivery has waited longer than `deliveryStallSeconds` and this
    /// process's outbox worker (if it runs one) finished a round within that time — what an
    /// outside monitor watches to know alerting has not stalled. `status` names the first part
    /// that is red; each part says why.
    /// `/ready`: this instance can serve requests (the database answers).
    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/health") { _, _ in
            let database = await health.databaseIsReachable()
            let engine = await health.engineHealth()
            let delivery = await health.deliveryHealth(stallAfter: deliveryStallSeconds)
            let healthy = database && engine.healthy && delivery.healthy
            let status =
                !database
                ? "database unavailable"
                : !engine.healthy
                    ? "escalation engine stalled"
                    : !delivery.healthy ? "delivery stalled: \(delivery.reason ?? "")" : "ok"
            return JSON(
                Report(status: status, database: database, engine: engine, delivery: delivery),
                status: healthy ? .ok : .serviceUnavailable)
        }
        router.get("/ready") { _, _ in
            let ready = await health.databaseIsReachable()
            return JSON(Ready(ready: ready), status: ready ? .ok : .serviceUnavailable)
        }
    }
}
