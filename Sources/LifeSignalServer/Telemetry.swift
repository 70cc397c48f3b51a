import CoreMetrics
import Hummingbird
import LifeSignalCore
import Prometheus

/// The server's metrics: a Prometheus registry, the swift-metrics factory writing into it, and
/// `GET /metrics` reading it.
///
/// Each application gets its own registry (tests build many in one process); `lifesignal
/// serve` also bootstraps swift-metrics' process-wide `MetricsSystem` with the same factory,
/// once, so what libraries record lands on the same page.
public struct Telemetry: Sendable {
    public let registry: PrometheusCollectorRegistry
    public let factory: PrometheusMetricsFactory

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = LifeSignalMetrics.durationBuckets
        self.factory = factory
    }

    public var metrics: LifeSignalMetrics { LifeSignalMetrics(factory: factory) }

    /// A new registry that swift-metrics' process-wide `MetricsSystem` records into too.
    /// Once per process (the bootstrap traps when called twice): `lifesignal serve` only.
    public static func bootstrapped() -> Telemetry {
        let telemetry = Telemetry()
        MetricsSystem.bootstrap(telemetry.factory)
        return telemetry
    }

    /// The registry's page in the Prometheus text format.
    public func exposition() -> String { registry.emitToString() }
}

/// `GET /metrics`: the Prometheus text exposition. The outbox gauges are sampled from the
/// store at each scrape (the scrape is the periodic read). Holds no personal data: labels are
/// route patterns, channels, kinds and outcomes.
struct MetricsController {
    let health: Health
    let metrics: LifeSignalMetrics
    let telemetry: Telemetry

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get("/metrics") { _, _ -> Response in
            metrics.databaseInUse(health.transactionsInFlight)
            if let backlog = await health.outboxBacklog() { metrics.outbox(backlog) }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: telemetry.exposition())))
        }
    }
}
