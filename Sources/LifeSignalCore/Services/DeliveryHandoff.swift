import Foundation
import LifeSignalDelivery
import LifeSignalStore
import Synchronization

/// Deliveries this process has just queued, handed straight to its own outbox worker.
///
/// Once a worker runs in this process (``arm(owner:leaseSeconds:)``), the deliveries a write
/// transaction queues are inserted already leased to it, and when that transaction has
/// committed they are handed over in memory: the worker attempts them at once, without waiting
/// for its next poll and without a claim transaction of its own. An SOS reaches the channel
/// adapters as soon as it is stored, and a burst of incidents is not queued a second time
/// behind the engine's writes.
///
/// The lease is what keeps this as safe as a claim: it is written in the same transaction as
/// the delivery, so a process that dies before recording the attempt leaves a delivery that
/// any worker claims from the store when the lease runs out — exactly as after a worker died
/// holding a claimed batch. A transaction that rolls back hands nothing over.
///
/// Once `capacity` deliveries wait here, the next transactions store theirs unleased, for
/// whichever worker polls first, so a slow provider never piles alerts up in memory (the
/// check is made as a transaction queues its deliveries, so the queue can end a few
/// transactions' worth above it).
final class DeliveryHandoff: Sendable {
    /// A delivery stored leased to this process's worker, with what recording its attempt needs.
    struct Item: Sendable {
        var target: DeliveryToRecord
        var leaseUntil: Date
        /// The worker the row is leased to.
        var owner: String = ""

        /// An alert about someone who may be in trouble: taken before anything else.
        var isAlert: Bool { target.notification?.category == .alerts }
    }

    let capacity: Int

    private struct State {
        var owner: String?
        /// Disarmed: the worker stopped, and nothing handed over now would be taken.
        var stopped = false
        var leaseSeconds: TimeInterval = 0
        /// Alerts and everything else, each oldest first: alerts are always taken first.
        var alerts: [Item] = []
        var others: [Item] = []
        var count: Int { alerts.count + others.count }
    }

    private let state = Mutex(State())
    private let offers = WorkSignal()

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// Starts handing deliveries over: from now on they are leased to `owner` for `leaseSeconds`.
    func arm(owner: String, leaseSeconds: TimeInterval) {
        state.withLock {
            $0.owner = owner
            $0.stopped = false
            $0.leaseSeconds = leaseSeconds
        }
    }

    /// The lease to store new deliveries with, or nil when they are to wait for a poll (no
    /// worker in this process, or enough already waiting).
    func lease(now: Date) -> DeliveryLease? {
        state.withLock { state in
            guard let owner = state.owner, state.count < capacity else { return nil }
            return DeliveryLease(owner: owner, until: now.addingTimeInterval(state.leaseSeconds))
        }
    }

    /// Hands over deliveries whose transaction has committed, and wakes a waiting worker.
    /// Returns those it could not hand over because the worker stopped meanwhile (a transaction
    /// that leased them before the worker stopped committed after): nobody will take them from
    /// memory, so the caller gives their leases back.
    @discardableResult
    func offer(_ items: [Item]) -> [Item] {
        guard !items.isEmpty else { return [] }
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            for item in items {
                if item.isAlert { state.alerts.append(item) } else { state.others.append(item) }
            }
            return true
        }
        guard accepted else { return items }
        offers.signal()
        return []
    }

    /// Takes up to `limit` handed-over deliveries whose lease lasts past `leasedPast`: alerts
    /// first, then (unless `alertsOnly`) the rest, each oldest first. Those whose lease ends
    /// sooner are dropped: they are left to a claim once their lease has ended (a copy taken
    /// now could be older than the row by then).
    func take(_ limit: Int, leasedPast: Date, alertsOnly: Bool = false) -> [Item] {
        state.withLock { state in
            func take(_ queue: inout [Item], _ limit: Int) -> [Item] {
                guard limit > 0, !queue.isEmpty else { return [] }
                queue.removeAll { $0.leaseUntil <= leasedPast }
                let count = min(limit, queue.count)
                defer { queue.removeFirst(count) }
                return Array(queue.prefix(count))
            }
            let alerts = take(&state.alerts, limit)
            return alertsOnly ? alerts : alerts + take(&state.others, limit - alerts.count)
        }
    }

    /// Stops handing deliveries over (the worker stopped): new ones are stored unleased again.
    /// Returns the owner and what was handed over but never taken, to give back to the poll.
    func disarm() -> (owner: String, left: [Item])? {
        state.withLock { state in
            guard let owner = state.owner else { return nil }
            state.owner = nil
            state.stopped = true
            defer {
                state.alerts.removeAll()
                state.others.removeAll()
            }
            return (owner, state.alerts + state.others)
        }
    }

    /// Returns once deliveries were offered (at once if some were since the last wait), or
    /// when the task is cancelled.
    func waitForOffer() async {
        await offers.wait()
    }

    /// Returns once a task is parked in ``waitForOffer()`` (at once if one is). For tests.
    func waitUntilWaitedOn() async {
        await offers.waitUntilWaitedOn()
    }
}
