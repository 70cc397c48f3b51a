import Foundation
import LifeSignalStore

/// Whether the product is working: the database, the escalation engine and the outbox.
public struct Health: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Health {
    /// Unhealthy when no engine has finished a pass within `staleAfter` seconds.
    public func engineHealth(staleAfter: TimeInterval = 30) async -> EngineHealth {
        guard let beats = try? await core.store.read({ try await $0.engine.heartbeats() }) else {
            return EngineHealth(healthy: false, lastPassAt: nil, secondsSinceLastPass: nil, instances: 0)
        }
        guard let newest = beats.map(\.lastPassAt).max() else {
            return EngineHealth(healthy: false, lastPassAt: nil, secondsSinceLastPass: nil, instances: 0)
        }
        let age = core.now.timeIntervalSince(newest)
        return EngineHealth(
            healthy: age <= staleAfter, lastPassAt: newest, secondsSinceLastPass: Int(age),
            instances: beats.filter { core.now.timeIntervalSince($0.lastPassAt) <= staleAfter }.count)
    }

    /// The outbox's due work now, through the store; nil when the database does not answer.
    public func outboxBacklog() async -> OutboxBacklog? {
        let now = core.now
        guard let found = try? await core.store.read({ try await $0.deliveries.outboxBacklog(now: now) }) else { return nil }
        return OutboxBacklog(due: found.due, oldestDueAge: found.oldestDueAt.map { max(0, now.timeIntervalSince($0)) })
    }

    /// Red when the oldest due delivery has waited more than `stallAfter` seconds, or when this
    /// process's worker has not finished a round for that long (counted from its start when it
    /// never has), or when a daily call is more than ``dailyCallsLateAfter`` behind its slot at
    /// the provider's rate (a paced morning is green; a stalled one is not). Also samples the
    /// outbox gauges.
    public func deliveryHealth(stallAfter: TimeInterval = 120) async -> DeliveryHealth {
        let backlog = await outboxBacklog()
        if let backlog { core.metrics.outbox(backlog) }
        var health = DeliveryHealth(
            healthy: true, due: backlog?.due, oldestDueSeconds: backlog?.oldestDueAge.map { Int($0) },
            workerRunsHere: core.outboxPulse.armedAt != nil)
        if let since = core.outboxPulse.lastRound ?? core.outboxPulse.armedAt {
            let age = core.now.timeIntervalSince(since)
            health.secondsSinceWorkerRound = Int(max(0, age))
            if age > stallAfter {
                health.healthy = false
                health.reason =
                    core.outboxPulse.lastRound == nil
                    ? "the outbox worker has not finished a round since it started \(Int(age)) s ago"
                    : "the outbox worker has not finished a round for \(Int(age)) s (limit \(Int(stallAfter)) s)"
            }
        }
        if let age = backlog?.oldestDueAge, age > stallAfter {
            health.healthy = false
            health.reason = "the oldest due delivery has waited \(Int(age)) s (limit \(Int(stallAfter)) s); \(backlog?.due ?? 0) due"
        }
        let lateBy = Self.dailyCallsLateAfter
        if let late = try? await core.read({ try await core.stalledDailyCalls(tx: $0, lateBy: lateBy) }), !late.isEmpty {
            health.healthy = false
            health.lateDailyCalls = late.count
            health.reason =
                "\(late.count) daily call\(late.count == 1 ? "" : "s") still not placed more than \(Int(lateBy / 60)) minutes after "
                + "\(late.count == 1 ? "its" : "their") slot at the provider's rate"
        }
        return health
    }

    /// Daily calls later than this behind their slot at the provider's rate turn `/health`
    /// red. (Their responders are told sooner, after ``ServiceCore/dailyCallPlacedWithin``.)
    public static let dailyCallsLateAfter: TimeInterval = 5 * 60

    /// What this instance last saw of its peers on a shared PostgreSQL database; nil on SQLite
    /// (one server) and before the watch's first look. Read from memory: no query.
    public var peers: PeerStatus? { core.peers.status }

    /// Whether the database answers (`/health`, `/ready`).
    public func databaseIsReachable() async -> Bool { await core.store.ping() }

    /// Whether storage is full: a write of this process was refused for want of space within
    /// the last 15 seconds. (A read, what `databaseIsReachable` does, still works on a full disk.)
    public var storageIsFull: Bool { core.storage.fullSince(now: core.now) != nil }

    /// Store transactions running now (a metric of the pool's use).
    public var transactionsInFlight: Int { core.store.transactionsInFlight }
}

/// Whether alerting is alive: the newest engine heartbeat must be recent.
public struct EngineHealth: Sendable, Hashable, Codable {
    public var healthy: Bool
    public var lastPassAt: Date?
    public var secondsSinceLastPass: Int?
    public var instances: Int
}

/// Whether deliveries are going out: nothing due has waited longer than the limit, and this
/// process's outbox worker (when one runs here) keeps finishing rounds.
public struct DeliveryHealth: Sendable, Hashable, Codable {
    public var healthy: Bool
    /// Why it is red, for a person; nil when green.
    public var reason: String?
    /// Deliveries due now, and how long the oldest has waited (seconds).
    public var due: Int?
    public var oldestDueSeconds: Int?
    /// Whether an outbox worker runs in this process, and seconds since it last finished a round.
    public var workerRunsHere: Bool
    public var secondsSinceWorkerRound: Int?
    /// People whose daily call is more than ``Health/dailyCallsLateAfter`` behind its slot;
    /// nil when none is.
    public var lateDailyCalls: Int?
}
