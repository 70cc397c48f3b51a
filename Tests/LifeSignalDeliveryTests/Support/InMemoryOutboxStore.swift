import Foundation
import LifeSignalDelivery
import LifeSignalModels
import Synchronization

/// The outbox contract in memory: claims honour due dates and leases atomically (it is an actor).
actor InMemoryOutboxStore: OutboxStore {
    struct Row: Sendable {
        var message: OutgoingMessage
        var attempts = 0
        var status: Delivery.Status = .queued
        var dueAt: Date
        var leaseOwner: String?
        var leaseUntil: Date?
        var reason: String?
        var providerID: String?
        var history: [(outcome: AttemptOutcome, at: Date)] = []
    }

    private(set) var rows: [DeliveryID: Row] = [:]
    private var order: [DeliveryID] = []
    /// Every claim handed out, to prove no delivery went to two workers at once.
    private(set) var claims: [(owner: String, id: DeliveryID)] = []
    nonisolated let recorded: AsyncStream<DeliveryID>
    private let recordedContinuation: AsyncStream<DeliveryID>.Continuation

    init() {
        (recorded, recordedContinuation) = AsyncStream<DeliveryID>.makeStream()
    }

    func enqueue(_ message: OutgoingMessage, dueAt: Date) {
        rows[message.deliveryID] = Row(message: message, dueAt: dueAt)
        order.append(message.deliveryID)
    }

    func row(_ id: DeliveryID) -> Row? { rows[id] }

    func claimDue(now: Date, limit: Int, owner: String, leaseUntil: Date) async throws -> [OutboxItem] {
        var claimed: [OutboxItem] = []
        for id in order where claimed.count < limit {
            guard var row = rows[id], row.status == .queued, row.dueAt <= now,
                row.leaseUntil.map({ $0 <= now }) ?? true
            else { continue }
            row.leaseOwner = owner
            row.leaseUntil = leaseUntil
            rows[id] = row
            claims.append((owner, id))
            claimed.append(OutboxItem(message: row.message, attempts: row.attempts, leaseUntil: leaseUntil))
        }
        return claimed
    }

    /// Deliveries handed over in memory, already leased (see `OutboxStore.takeOffered`).
    private nonisolated let offered = Mutex<[OutboxItem]>([])

    /// Stores a delivery due at `dueAt` leased to `owner` and hands it over, as a process with
    /// a worker does.
    func offer(_ message: OutgoingMessage, dueAt: Date, leasedTo owner: String, until: Date) {
        rows[message.deliveryID] = Row(message: message, dueAt: dueAt, leaseOwner: owner, leaseUntil: until)
        order.append(message.deliveryID)
        offered.withLock { $0.append(OutboxItem(message: message, attempts: 0, leaseUntil: until)) }
        offers.signal()
    }

    private nonisolated let offers = WorkSignal()

    nonisolated func workOffered() async { await offers.wait() }

    nonisolated func takeOffered(limit: Int, leasedPast: Date, alertsOnly: Bool) -> [OutboxItem] {
        offered.withLock { offered in
            offered.removeAll { $0.leaseUntil <= leasedPast }
            // Alerts first, each kind oldest first, as the service's handoff does.
            let ordered = offered.filter(\.message.urgent) + (alertsOnly ? [] : offered.filter { !$0.message.urgent })
            let taken = Array(ordered.prefix(limit))
            let ids = Set(taken.map(\.message.deliveryID))
            offered.removeAll { ids.contains($0.message.deliveryID) }
            return taken
        }
    }

    /// All or none, like the SQL store: every delivery must exist before any is changed.
    func record(_ attempts: [AttemptRecord]) async throws {
        if let gate = recordGate {
            recordGate = nil
            await gate()
        }
        if let bad = attempts.first(where: { refused.contains($0.deliveryID) }) {
            throw FakeServerError("refusing to record \(bad.deliveryID)")
        }
        if let unknown = attempts.first(where: { rows[$0.deliveryID] == nil }) {
            throw FakeServerError("unknown delivery \(unknown.deliveryID)")
        }
        recordBatches.append(attempts.count)
        for attempt in attempts { apply(attempt.outcome, to: attempt.deliveryID, at: attempt.at) }
    }

    /// Clears the leases of deliveries `owner` gave back unstarted.
    func release(_ items: [OutboxItem], owner: String) async {
        for item in items {
            guard var row = rows[item.message.deliveryID], row.leaseOwner == owner else { continue }
            row.leaseOwner = nil
            row.leaseUntil = nil
            rows[item.message.deliveryID] = row
            released.append(item.message.deliveryID)
        }
    }

    /// Every delivery given back unstarted, in order.
    private(set) var released: [DeliveryID] = []

    /// Deliveries whose outcome this store refuses to record (a poisoned row).
    private var refused: Set<DeliveryID> = []

    func refuseToRecord(_ id: DeliveryID) { refused.insert(id) }

    /// What the next `record` call waits for before recording (once).
    private var recordGate: (@Sendable () async -> Void)?

    /// Holds the next `record` call until `gate` returns: what finishes meanwhile piles up.
    func holdNextRecord(until gate: @escaping @Sendable () async -> Void) { recordGate = gate }

    /// How many outcomes each `record` call carried.
    private(set) var recordBatches: [Int] = []

    private func apply(_ outcome: AttemptOutcome, to id: DeliveryID, at: Date) {
        guard var row = rows[id] else { return }
        if outcome != .interrupted { row.attempts += 1 }
        row.leaseOwner = nil
        row.leaseUntil = nil
        row.history.append((outcome, at))
        switch outcome {
        case .sent(let providerID), .alreadySent(let providerID):
            row.status = .sent
            row.providerID = providerID
        case .delivered(let providerID):
            row.status = .delivered
            row.providerID = providerID
        case .retry(let dueAt, let reason):
            row.dueAt = dueAt
            row.reason = reason
        case .failed(let reason):
            row.status = .failed
            row.reason = reason
        case .interrupted:
            row.dueAt = at
            row.reason = WorkerShutdown.interruptedReason
        }
        rows[id] = row
        recordedContinuation.yield(id)
    }
}

/// A clock the test moves by hand.
final class ManualNow: Sendable {
    private let date: Mutex<Date>
    init(_ date: Date) { self.date = Mutex(date) }
    var now: Date { date.withLock { $0 } }
    func set(_ newValue: Date) { date.withLock { $0 = newValue } }
}
