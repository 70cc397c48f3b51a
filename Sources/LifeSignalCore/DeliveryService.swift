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

    /// A worker over this service's outbox, sending through `registry`.
    public static func worker(for service: LifeSignalService, registry: ChannelRegistry, owner: String) -> OutboxWorker {
        OutboxWorker(
            store: StoreOutbox(service: service), registry: registry, owner: owner,
            now: { service.environment.now() }, logger: service.logger)
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            try? await worker.run(pollInterval: pollInterval)
        }
    }
}
