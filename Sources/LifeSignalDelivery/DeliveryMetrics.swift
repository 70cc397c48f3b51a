import CoreMetrics
import Foundation
import Synchronization

/// What the outbox worker reports: attempts by channel and outcome (swift-metrics, into the
/// factory the server was built with), and when it last finished a round (for `/health`).
public struct DeliveryMetrics: Sendable {
    public let factory: any MetricsFactory
    /// Told the time of each round the worker finished without a store error.
    public var pulse: WorkerPulse?

    public init(factory: any MetricsFactory, pulse: WorkerPulse? = nil) {
        self.factory = factory
        self.pulse = pulse
    }

    public static let disabled = DeliveryMetrics(factory: NOOPMetricsHandler.instance)

    /// `lifesignal_delivery_attempts_total{channel, outcome}`, outcome one of
    /// `sent`, `delivered`, `retry`, `failed`, `interrupted` (cut off by shutdown).
    func attempted(channel: String, outcome: AttemptOutcome) {
        Counter(
            label: "lifesignal_delivery_attempts_total",
            dimensions: [("channel", channel), ("outcome", outcome.metricName)], factory: factory
        ).increment()
    }
}

extension AttemptOutcome {
    var metricName: String {
        switch self {
        case .sent: "sent"
        case .delivered: "delivered"
        case .alreadySent: "found_at_provider"
        case .retry: "retry"
        case .failed: "failed"
        case .interrupted: "interrupted"
        }
    }
}

/// When an outbox worker of this process last finished a round, and since when it is meant to
/// run: a worker that stops going round (stuck on a store that never answers, never started)
/// leaves this behind and `/health` turns red.
public final class WorkerPulse: Sendable {
    private struct State {
        var armedAt: Date?
        var lastRound: Date?
        var watchers: [UInt64: AsyncStream<Int>.Continuation] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The worker is expected to run from `at` on.
    public func arm(at: Date) {
        state.withLock { if $0.armedAt == nil { $0.armedAt = at } }
    }

    /// A round finished at `at`, having attempted `attempted` deliveries.
    public func beat(at: Date, attempted: Int) {
        let watchers = state.withLock { state in
            state.lastRound = at
            return state.watchers.values
        }
        for watcher in watchers { watcher.yield(attempted) }
    }

    /// Each round finished from now on, as how many deliveries it attempted (0: the worker
    /// found nothing to do and goes idle). For tests: they act on what the worker did rather
    /// than on how long it might take.
    public func rounds() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let id = state.withLock { state in
            defer { state.next &+= 1 }
            state.watchers[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Nil when no worker is meant to run in this process.
    public var armedAt: Date? { state.withLock { $0.armedAt } }
    public var lastRound: Date? { state.withLock { $0.lastRound } }
}
