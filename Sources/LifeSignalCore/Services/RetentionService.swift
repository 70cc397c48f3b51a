import Foundation
import LifeSignalModels
import LifeSignalStore
import Logging
import ServiceLifecycle

/// What one retention run deleted.
public struct RetentionPass: Sendable, Equatable {
    public var notifications = 0
    public var deliveries = 0
    public var codes = 0
    public var rateLimits = 0
    /// Ended plans whose sealed details were erased (their headline and times stay).
    public var planDetails = 0
    /// Locations deleted: her latest kept past 7 days, and those of alerts that ended over 30 days ago.
    public var locations = 0
    /// Transactions it took.
    public var batches = 0

    /// A run that has deleted nothing yet.
    public init() {}

    /// Every count once, with its name in the log line: `total` and `counts` both read it.
    static var counters: [(name: String, count: KeyPath<RetentionPass, Int>)] {
        [
            ("notifications", \.notifications), ("deliveries", \.deliveries), ("codes", \.codes),
            ("rate_limits", \.rateLimits), ("plan_details", \.planDetails), ("locations", \.locations),
            ("batches", \.batches),
        ]
    }

    /// Rows deleted (`batches` counts transactions, not rows).
    public var total: Int {
        Self.counters.reduce(0) { sum, counter in counter.count == \.batches ? sum : sum + self[keyPath: counter.count] }
    }

    /// Every count by name, for the log line of a run that deleted something.
    public var counts: [(key: String, value: Int)] {
        Self.counters.map { ($0.name, self[keyPath: $0.count]) }
    }
}

extension RetentionService {
    /// Deletes what the product no longer keeps, `batchSize` rows per transaction so no batch
    /// holds the writer for long, until nothing is left: notifications older than the
    /// notification history (`notificationHistoryDays`) with their deliveries — except those of
    /// an open incident or still being delivered — sign-in codes that expired, and rate-limit
    /// windows older than `rateLimitWindowsKept`, and the details of plans that ended over
    /// 30 days ago (``Plan/detailsKeptAfterEnd``), and locations: one of no alert after 7 days,
    /// one of an alert 30 days after it ended (``LocationFix``). The timeline is never pruned.
    @discardableResult
    public func prune(rateLimitWindowsKept: TimeInterval = 86400) async throws -> RetentionPass {
        let now = core.now
        let store = core.store
        let cutoff = now.addingTimeInterval(-Double(core.configuration.notificationHistoryDays) * 86400)
        let limit = max(1, batchSize)
        var pass = RetentionPass()
        while true {
            let pruned = try await store.write { try await $0.retention.pruneNotifications(before: cutoff, limit: limit) }
            pass.batches += 1
            pass.notifications += pruned.notifications
            pass.deliveries += pruned.deliveries
            if pruned.notifications < limit { break }
        }
        while true {
            let codes = try await store.write { try await $0.retention.pruneExpiredCodes(now: now, limit: limit) }
            pass.batches += 1
            pass.codes += codes
            if codes < limit { break }
        }
        let windows = now.addingTimeInterval(-rateLimitWindowsKept)
        while true {
            let rows = try await store.write { try await $0.retention.pruneRateLimits(windowStartedBefore: windows, limit: limit) }
            pass.batches += 1
            pass.rateLimits += rows
            if rows < limit { break }
        }
        let ended = now.addingTimeInterval(-Plan.detailsKeptAfterEnd)
        while true {
            let erased = try await store.write { try await $0.plans.erasePlanDetails(endedBefore: ended, limit: limit) }
            pass.batches += 1
            pass.planDetails += erased
            if erased < limit { break }
        }
        let loose = now.addingTimeInterval(-LocationFix.keptOutsideAlert)
        while true {
            let deleted = try await store.write { try await $0.locations.pruneLoose(before: loose, limit: limit) }
            pass.batches += 1
            pass.locations += deleted
            if deleted < limit { break }
        }
        let alertEnded = now.addingTimeInterval(-LocationFix.keptAfterAlert)
        while true {
            let deleted = try await store.write { try await $0.locations.pruneAlertLocations(endedBefore: alertEnded, limit: limit) }
            pass.batches += 1
            pass.locations += deleted
            if deleted < limit { break }
        }
        core.metrics.pruned(pass.notifications, table: "notifications")
        core.metrics.pruned(pass.deliveries, table: "deliveries")
        core.metrics.pruned(pass.codes, table: "sign_in_codes")
        core.metrics.pruned(pass.rateLimits, table: "rate_limits")
        core.metrics.pruned(pass.planDetails, table: "plan_details")
        core.metrics.pruned(pass.locations, table: "locations")
        return pass
    }
}

/// Runs retention in the server's `ServiceGroup`: at start, then every `interval`, until
/// graceful shutdown. A failed run is logged and tried again at the next interval.
public struct RetentionService: Service {
    let core: ServiceCore
    public var interval: Duration
    public var batchSize: Int

    public init(core: ServiceCore, interval: Duration = .seconds(300), batchSize: Int = 500) {
        self.core = core
        self.interval = interval
        self.batchSize = batchSize
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let pass = try await prune()
                    if pass.total > 0 {
                        core.logger.info(
                            "retention pass",
                            metadata: Logger.Metadata(counts: pass.counts))
                    }
                } catch {
                    core.logger.error("retention pass failed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
