import Foundation
import LifeSignalDelivery
import Logging
import ServiceLifecycle

/// Runs an outbox worker in the server's `ServiceGroup` until graceful shutdown.
public struct DeliveryService: Service {
    public let worker: OutboxWorker
    public var pollInterval: Duration

    public init(worker: OutboxWorker, pollInterval: Duration = .milliseconds(200)) {
        self.worker = worker
        self.pollInterval = pollInterval
    }

    /// Deliveries a worker claims at once. Large enough that a burst of alerts is claimed in few
    /// transactions; an attempt that could not finish inside the lease is not started (see
    /// `OutboxWorker`), so slow providers never cause a second send.
    public static let batchSize = 500
    /// The slowest adapter's worst case: e-mail's 10 s connect plus 30 s exchange, with margin.
    public static let maxAttemptSeconds: TimeInterval = 45

    /// How long a claim (or a delivery handed over at its creation) is leased to a worker.
    public static let leaseSeconds: TimeInterval = 120

    /// The server's worker over this service's outbox, sending through `registry`. Deliveries
    /// this process queues are handed to it as their transaction commits (see `DeliveryHandoff`);
    /// the rest (retries, fallbacks, other processes' work after a crash) it polls for.
    public static func worker(
        for core: ServiceCore, registry: ChannelRegistry, owner: String, batchSize: Int = batchSize
    ) -> OutboxWorker {
        core.handoff.arm(owner: owner, leaseSeconds: leaseSeconds)
        core.outboxPulse.arm(at: core.now)
        var metrics = core.metrics.delivery
        metrics.pulse = core.outboxPulse
        return OutboxWorker(
            store: StoreOutbox(core: core), registry: registry,
            policy: RetryPolicy(maxAttempts: core.configuration.deliveryMaxAttempts), owner: owner,
            now: { core.environment.now() }, logger: core.logger, batchSize: batchSize,
            leaseSeconds: leaseSeconds, concurrency: core.configuration.deliveryConcurrency,
            maxAttemptSeconds: maxAttemptSeconds,
            metrics: metrics)
    }

    /// At start: deliveries leased to this instance's previous run (same `stem`, host and port,
    /// another boot id) go back to the poll at once instead of after their lease. The dead run
    /// may have sent some of them before recording it; every message carries its delivery id
    /// (Idempotency-Key, collapse id, topic, Message-ID) so receivers can drop that copy.
    @discardableResult
    public static func reclaimDeadLeases(in core: ServiceCore, stem: String, current owner: String) async throws -> Int {
        try await core.write { tx, _ in try await tx.releaseDeadLeases(stem: stem, except: owner) }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            try? await worker.run(pollInterval: pollInterval)
        }
    }
}
