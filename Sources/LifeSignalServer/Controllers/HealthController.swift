import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalStore

/// `GET /health`: 200 when the database answers, storage has room, the engine runs and
/// deliveries go out; 503 with the reason when not. It answers within a second whatever the
/// database does: a probe that has not finished by then counts as a database not answering.
struct HealthController {
    let health: Health
    var deliveryStallSeconds: TimeInterval = 120
    /// How long the probes may take before `/health` answers without them.
    var probeLimit: Duration = .milliseconds(800)

    struct Report: Encodable {
        var status: String
        var database: Bool
        /// Whether writes are refused for want of space.
        var storageFull: Bool
        /// Nil when the database did not answer in time.
        var engine: EngineHealth?
        var delivery: DeliveryHealth?
        /// Other instances on the same PostgreSQL database: how many are alive, which went
        /// silent. A missing peer does not make this instance unhealthy (a load balancer would
        /// otherwise take the survivors out too): it is reported, and its work taken over.
        var peers: PeerStatus?
    }

    struct Ready: Encodable {
        var ready: Bool
    }

    /// `/health`: the database answers, storage is not full, an escalation engine finished a
    /// pass in the last 30 seconds, no due delivery has waited longer than
    /// `deliveryStallSeconds` and this process's outbox worker (if it runs one) finished a round
    /// within that time — what an outside monitor watches to know alerting has not stalled.
    /// `status` names the first part that is red; each part says why. `peers` (PostgreSQL) says
    /// how many instances are alive and which are missing; it never turns `/health` red.
    /// `/ready`: this instance can serve requests (the database answers, within the limit).
    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/health") { _, _ in
            let health = health
            let stall = deliveryStallSeconds
            let probed = await Self.within(probeLimit) {
                async let database = health.databaseIsReachable()
                async let engine = health.engineHealth()
                async let delivery = health.deliveryHealth(stallAfter: stall)
                return (await database, await engine, await delivery)
            }
            let storageFull = health.storageIsFull
            guard let (database, engine, delivery) = probed else {
                return JSON(
                    Report(status: "database not answering", database: false, storageFull: storageFull, peers: health.peers),
                    status: .serviceUnavailable)
            }
            let healthy = database && !storageFull && engine.healthy && delivery.healthy
            let status =
                !database
                ? "database unavailable"
                : storageFull
                    ? "storage full"
                    : !engine.healthy
                        ? "escalation engine stalled"
                        : !delivery.healthy ? "delivery stalled: \(delivery.reason ?? "")" : "ok"
            return JSON(
                Report(
                    status: status, database: database, storageFull: storageFull, engine: engine, delivery: delivery,
                    peers: health.peers),
                status: healthy ? .ok : .serviceUnavailable)
        }
        router.get("/ready") { _, _ in
            let health = health
            let ready = await Self.within(probeLimit) { await health.databaseIsReachable() } ?? false
            return JSON(Ready(ready: ready), status: ready ? .ok : .serviceUnavailable)
        }
    }

    /// `work`'s result, or nil when it has not finished within `limit`; then it is cancelled
    /// and left behind, not awaited, so a database that stopped answering cannot hold the caller.
    static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let (results, result) = AsyncStream<T?>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let worker = Task {
            result.yield(await work())
            result.finish()
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            result.yield(nil)
            result.finish()
        }
        var answer: T? = nil
        for await value in results {
            answer = value
            break
        }
        timer.cancel()
        if answer == nil { worker.cancel() }
        return answer
    }
}
