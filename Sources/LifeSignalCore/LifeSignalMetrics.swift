import CoreMetrics
import Foundation
import LifeSignalDelivery
import LifeSignalModels

/// The product's metrics, recorded through swift-metrics into whatever factory the server
/// was built with (Prometheus in `lifesignal serve`, nothing by default).
///
/// The factory is passed in rather than taken from `MetricsSystem`, whose bootstrap is
/// process-wide: each application built in a test process gets its own registry. Every name is
/// prefixed `lifesignal_`; durations are histograms in seconds. The list is in docs/METRICS.md.
public struct LifeSignalMetrics: Sendable {
    public let factory: any MetricsFactory

    public init(factory: any MetricsFactory) {
        self.factory = factory
    }

    /// Records nothing.
    public static let disabled = LifeSignalMetrics(factory: NOOPMetricsHandler.instance)

    /// The outbox worker's share: delivery attempts by channel and outcome.
    public var delivery: DeliveryMetrics { DeliveryMetrics(factory: factory) }

    /// Counted once the transaction that caused it committed (see `PendingEvents.count`).
    enum Event: Sendable {
        case checkIn(CheckIn.Source)
        case incidentOpened(Incident.Kind)
        /// An escalation step taken `lag` seconds after it was due.
        case stepTaken(step: String, lag: TimeInterval)
        /// A ladder reached its top with nobody on it: everyone was called.
        case ladderExhausted(Incident.Kind)
        /// A try of a daily call that did not ring (`late`, `refused`, `night`).
        case dailyCallUnplaced(reason: String)
    }

    func record(_ event: Event) {
        switch event {
        case let .checkIn(source):
            Counter(label: "lifesignal_check_ins_total", dimensions: [("source", source.rawValue)], factory: factory)
                .increment()
        case let .incidentOpened(kind):
            Counter(label: "lifesignal_incidents_opened_total", dimensions: [("kind", kind.rawValue)], factory: factory)
                .increment()
        case let .stepTaken(step, lag):
            CoreMetrics.Timer(label: Self.stepLag, dimensions: [("step", step)], factory: factory)
                .recordSeconds(max(0, lag))
        case let .ladderExhausted(kind):
            Counter(label: "lifesignal_ladders_exhausted_total", dimensions: [("kind", kind.rawValue)], factory: factory)
                .increment()
        case let .dailyCallUnplaced(reason):
            Counter(label: "lifesignal_daily_calls_unplaced_total", dimensions: [("reason", reason)], factory: factory)
                .increment()
        }
    }

    /// How long one engine pass took.
    func escalationPass(seconds: Double) {
        CoreMetrics.Timer(label: Self.passDuration, dimensions: [], factory: factory).recordSeconds(max(0, seconds))
    }

    /// The outbox as last sampled: deliveries due now, and how long the oldest of them has waited.
    public func outbox(_ backlog: OutboxBacklog) {
        Gauge(label: "lifesignal_outbox_due_deliveries", dimensions: [], factory: factory).record(backlog.due)
        Gauge(label: "lifesignal_outbox_oldest_due_age_seconds", dimensions: [], factory: factory)
            .record(backlog.oldestDueAge ?? 0)
    }

    /// Database transactions open at the moment of sampling (each holds a pooled connection).
    public func databaseInUse(_ transactions: Int) {
        Gauge(label: "lifesignal_database_transactions_in_flight", dimensions: [], factory: factory).record(transactions)
    }

    /// One more (or one fewer) open live-event stream.
    public func streamOpened() { streams.increment() }
    public func streamClosed() { streams.decrement() }
    private var streams: Meter { Meter(label: "lifesignal_sse_streams_open", dimensions: [], factory: factory) }

    /// Server runs on the shared database heard from within the silence limit (this one included).
    func instancesLive(_ count: Int) {
        Gauge(label: "lifesignal_instances_live", dimensions: [], factory: factory).record(count)
    }

    /// A silent peer's work taken over by this instance, with the deliveries it had leased.
    func instanceTakenOver(deliveries: Int) {
        Counter(label: "lifesignal_instance_takeovers_total", dimensions: [], factory: factory).increment()
        Counter(label: "lifesignal_instance_takeover_deliveries_total", dimensions: [], factory: factory)
            .increment(by: deliveries)
    }

    /// Rows the retention service deleted, by table.
    func pruned(_ count: Int, table: String) {
        guard count > 0 else { return }
        Counter(label: "lifesignal_retention_pruned_rows_total", dimensions: [("table", table)], factory: factory)
            .increment(by: count)
    }

    static let passDuration = "lifesignal_escalation_pass_duration_seconds"
    static let stepLag = "lifesignal_escalation_step_lag_seconds"

    /// Histogram buckets for the timers whose range the default (5 ms … 10 s) does not fit:
    /// a step's lag is normally under a second (the engine polls each second) and, after an
    /// outage, minutes to hours.
    public static let durationBuckets: [String: [Duration]] = [
        stepLag: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 3600].map { Duration.milliseconds(Int64($0 * 1000)) },
        passDuration: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
            .map { Duration.microseconds(Int64($0 * 1_000_000)) },
    ]
}

/// The outbox's due work at one moment, for the gauges and `/health`.
public struct OutboxBacklog: Sendable, Hashable, Codable {
    /// Deliveries whose attempt time has come (whether or not a worker holds them right now).
    public var due: Int
    /// Seconds since the oldest of them became due; nil when none is.
    public var oldestDueAge: Double?
}
