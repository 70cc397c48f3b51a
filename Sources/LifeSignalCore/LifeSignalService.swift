import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore
import LifeSignalDelivery
import Logging

/// The service: every command and query of the product, with authorization and validation.
///
/// The web pages, the JSON API and the escalation engine all come in through here. It knows
/// nothing of HTTP or SQL: it speaks models to callers and typed records to the store.
public struct LifeSignalService: Sendable {
    /// Reached only through the service's commands and queries (and the engine and outbox in
    /// this target); tests that set up or inspect rows directly use `storeForTesting`.
    let store: Store
    public let environment: ServiceEnvironment
    public let configuration: ServiceConfiguration
    public let events: EventHub
    public let codeSender: SignInCodeSender
    /// Deliveries handed to this process's outbox worker once their transaction commits.
    let handoff = DeliveryHandoff()
    /// When this process's outbox worker last finished a round (for `/health`).
    public let outboxPulse = WorkerPulse()

    public init(
        store: Store, environment: ServiceEnvironment, configuration: ServiceConfiguration = .init(),
        events: EventHub = EventHub(), codeSender: SignInCodeSender
    ) {
        self.store = store
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
            throw ServiceError.from(error)
        }
        handoff.offer(pending.drainHandoffs())
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

    func newID<Tag>(_: Identifier<Tag>.Type = Identifier<Tag>.self) -> Identifier<Tag> {
        Identifier(environment.uuid())
    }
}

extension LifeSignalService {
    /// Whether the database answers (`/health`, `/ready`).
    public func databaseIsReachable() async -> Bool { await store.ping() }

    /// Store transactions running now (a metric of the pool's use).
    public var transactionsInFlight: Int { store.transactionsInFlight }

    /// The store itself, for tests that arrange or check rows the service does not expose.
    @_spi(Testing) public var storeForTesting: Store { store }
}
