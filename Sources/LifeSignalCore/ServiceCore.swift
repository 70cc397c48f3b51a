import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore
import LifeSignalDelivery
import Logging

/// What every use case of the product shares: the store, the environment (clock, ids, logger,
/// metrics), the configuration, the live-event hub and the handoff to the outbox worker.
///
/// Callers do not send commands to it: they hold the use cases they need (`CheckIns`,
/// `Contacts`, `Pings`, `Incidents`, `Notifications`, `Channels`, `Timeline`, `Drills`,
/// `Accounts`, `Profiles`, `Replies`, `Health`), each a small value over one shared core, with
/// authorization and validation. The core holds the steps several use cases take inside their
/// transactions (`recordCheckIn`, `notify`, `resolve`, `publishStatus`, …); the background
/// services (`EscalationService`, `DeliveryService`, `RetentionService`) run the engine, the
/// outbox and retention over it. It knows nothing of HTTP or SQL: it speaks models to callers
/// and typed records to the store.
public struct ServiceCore: Sendable {
    /// Reached only through the use cases (and the engine and outbox in this target); tests
    /// that set up or inspect rows directly use `storeForTesting`.
    let store: Store
    public let environment: ServiceEnvironment
    public let configuration: ServiceConfiguration
    public let events: EventHub
    public let codeSender: SignInCodeSender
    /// Deliveries handed to this process's outbox worker once their transaction commits.
    let handoff = DeliveryHandoff()
    /// When this process's outbox worker last finished a round (for `/health`).
    public let outboxPulse = WorkerPulse()
    /// When a write last failed because storage is full (for `/health`).
    let storage = StorageCondition()
    /// What this instance last saw of its peers (for `/health`; see `PeerWatchService`).
    public let peers = PeerWatch()

    public init(
        store: Store, environment: ServiceEnvironment, configuration: ServiceConfiguration = .init(),
        events: EventHub = EventHub(), codeSender: SignInCodeSender
    ) {
        // Every head this service moves is sealed with its key (see `Timeline.verifyTimeline`).
        self.store = store.sealingTimelines(with: configuration.serverKey)
        self.environment = environment
        self.configuration = configuration
        self.events = events
        self.codeSender = codeSender
    }

    /// The service's clock (the test clock in test mode), to the millisecond.
    public var now: Date { Date(milliseconds: environment.now().milliseconds) }
    var logger: Logger { environment.logger }
    public var metrics: LifeSignalMetrics { environment.metrics }

    /// Runs a write transaction and publishes the live events it gathered once it committed.
    func write<T: Sendable>(_ body: @Sendable (StoreTransaction, PendingEvents) async throws -> T) async throws -> T {
        let pending = PendingEvents()
        let result: T
        do {
            result = try await store.write { try await body($0, pending) }
        } catch {
            if case StoreError.full = error { storage.failedFull(at: now) }
            throw ServiceError.from(error)
        }
        let stranded = handoff.offer(pending.drainHandoffs())
        if !stranded.isEmpty { await giveBack(stranded) }
        for event in pending.drainCounts() { metrics.record(event) }
        for (event, users) in pending.drain() { await events.publish(event, to: users) }
        return result
    }

    func read<T: Sendable>(_ body: @Sendable (StoreTransaction) async throws -> T) async throws -> T {
        do {
            return try await store.read(body)
        } catch {
            throw ServiceError.from(error)
        }
    }

    /// Deliveries leased to this process's worker after it stopped (shutdown): back to the
    /// poll at once rather than when their lease ends. Best effort: the lease still bounds it.
    private func giveBack(_ stranded: [DeliveryHandoff.Item]) async {
        for (owner, items) in Dictionary(grouping: stranded, by: \.owner) {
            let ids = items.map(\.target.delivery.id)
            do {
                try await store.write { tx in try await tx.deliveries.release(ids, leasedTo: owner) }
            } catch {
                logger.warning(
                    "Could not give back deliveries queued as the worker stopped; they wait for their lease to end",
                    metadata: ["count": "\(ids.count)", "error": "\(String(reflecting: error))"])
            }
        }
    }

    func newID<Tag>(_: Identifier<Tag>.Type = Identifier<Tag>.self) -> Identifier<Tag> {
        Identifier(environment.uuid())
    }
}

extension ServiceCore {
    /// The store itself, for tests that arrange or check rows the service does not expose.
    @_spi(Testing) public var storeForTesting: Store { store }
}
