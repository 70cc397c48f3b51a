import Foundation
import LifeSignalDelivery
import Logging
import ServiceLifecycle

/// Runs an outbox worker in the server's `ServiceGroup` until graceful shutdown.
public struct DeliveryService: Service {
    public let worker: OutboxWorker
    public var pollInterval: Duration
    public var shutdownGrace: Duration

    public init(worker: OutboxWorker, pollInterval: Duration = .milliseconds(200), shutdownGrace: Duration = Self.defaultShutdownGrace) {
        self.worker = worker
        self.pollInterval = pollInterval
        self.shutdownGrace = shutdownGrace
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
            metrics: metrics, pacing: DeliveryPacing(callsPerSecond: core.configuration.callsPerSecond))
    }

    /// At start: deliveries leased to this instance's previous run (same `stem`, its instance id,
    /// another boot id) go back to the poll at once instead of after their lease. The dead run
    /// may have sent some of them before recording it. Every message carries its delivery id, so
    /// that copy can be recognised: webhooks in `LifeSignal-Delivery` and `Idempotency-Key`
    /// (receivers drop it), e-mail in its Message-ID, Apple push in `apns-id` and the collapse
    /// id, Web Push in `Topic` (the push service replaces it), ntfy in a `LifeSignal-Delivery`
    /// header; texts and calls in the status-callback URL given to Twilio (the person's phone
    /// still shows both, but the provider's records say they were one delivery).
    @discardableResult
    public static func reclaimDeadLeases(in core: ServiceCore, stem: String, current owner: String) async throws -> Int {
        try await core.write { tx, _ in try await tx.deliveries.releaseDeadLeases(stem: stem, except: owner) }
    }

    /// How long the sends already handed to a provider may go on after shutdown begins before
    /// they are cut off (and recorded as interrupted, to be sent again).
    public static let defaultShutdownGrace: Duration = .seconds(10)

    /// Runs the worker until graceful shutdown. Shutdown stops it in two stages (see
    /// `WorkerShutdown`): at once no claim and no new send, what was claimed and not started
    /// given back; then, after `shutdownGrace`, whatever is still in flight cut off. The
    /// server tells the worker's `shutdown` as soon as the signal arrives (before the HTTP server
    /// has drained), so this service's own turn in the shutdown order may come later: it then
    /// waits for it, since a service that ends early cancels the whole group.
    public func run() async throws {
        let shutdown = worker.shutdown
        let grace = shutdownGrace
        let cutOff = Task {
            await shutdown.stopped()
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: grace)
            guard !Task.isCancelled else { return }
            shutdown.interruptSends()
        }
        defer { cutOff.cancel() }
        await withGracefulShutdownHandler {
            try? await worker.run(pollInterval: pollInterval)
        } onGracefulShutdown: {
            shutdown.stop()
        }
        // Stopped early by the server's signal: wait for this service's turn (or cancellation).
        try? await gracefulShutdown()
    }
}
