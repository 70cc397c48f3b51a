import Foundation
import LifeSignalModels
import LifeSignalRules

/// One round of an outbox worker as a value: what waits to start, what is in flight, what
/// waits to be recorded, and the rules that decide what starts next. It does no I/O and
/// reads no clock: the worker (``OutboxWorker/runOnce()``) feeds it the deliveries the store
/// hands over, the time, and what the sends and the records return.
///
/// The rules: at most `concurrency` sends at once, shared by lanes (``OutboxWorker/Lanes``):
/// alerts first and with slots of their own, no host or recipient taking more than its
/// share; a send starts only while it can finish inside its lease; the round takes at most
/// ``batches`` batches of handed-over work besides its claim, and alerts handed over meanwhile
/// have a bound of their own, so a slow round still takes them and a stream of them still
/// lets polled work (retries, fallbacks) have its turn. A paced channel's send starts only in
/// a free slot of its rate (``DeliveryPacing``); what finds none waits, and when the round ends
/// it is given back to the outbox. Outcomes are recorded by one record at a time that takes
/// everything collected so far.
struct DeliveryRound: Sendable {
    /// A round takes at most this many batches: its claim, then what is handed over meanwhile.
    static let batches = 4

    let batchSize: Int
    let concurrency: Int
    let lanes: OutboxWorker.Lanes
    /// The longest one attempt can take: a send starts only this long before its lease ends.
    let maxAttemptSeconds: TimeInterval
    /// The providers' rates; nil: nothing paced.
    let pacing: DeliveryPacing?

    /// Claimed or handed over, not started yet, in the order they start.
    private(set) var waiting: [OutboxItem]
    /// Everything the round took: its claim and what was handed over.
    private(set) var taken: Int
    /// Alerts handed over in the middle of the round.
    private(set) var alertsTaken = 0
    /// Too late to finish inside their lease: left for a claim once the lease ends.
    private(set) var tooLate = 0
    /// Not started because the worker is stopping: to be given back.
    private(set) var givenBack: [OutboxItem] = []
    /// Not started because their channel's slots were taken when the round ended: to be given
    /// back, for the next claim to take in the order of the slots (alerts first).
    private(set) var pacedOut: [OutboxItem] = []
    private(set) var inFlight = InFlight()
    /// Attempts made, waiting for the record under way to finish.
    private(set) var collected: [Attempted] = []
    private(set) var isRecording = false
    /// The first error a record returned (the round still attempts and records the rest).
    private(set) var firstError: (any Error)?
    /// A watcher for handed-over work is running (see ``OutboxStore/workOffered()``).
    var isWatching = false
    /// Nothing in flight, nothing to record: the round has ended and starts nothing more.
    private(set) var isClosed = false

    init(
        claimed items: [OutboxItem], batchSize: Int, concurrency: Int, lanes: OutboxWorker.Lanes,
        maxAttemptSeconds: TimeInterval, pacing: DeliveryPacing? = nil
    ) {
        self.batchSize = batchSize
        self.concurrency = concurrency
        self.lanes = lanes
        self.maxAttemptSeconds = maxAttemptSeconds
        self.pacing = pacing
        self.waiting = Self.alertsFirst(items)
        self.taken = items.count
    }

    private var limit: Int { Self.batches * batchSize }

    /// How many alerts handed over meanwhile may still join the round.
    var alertRoom: Int { max(0, min(batchSize, limit - alertsTaken)) }

    /// Whether another send could start now (the lanes may still hold a given one back).
    var hasFreeSlot: Bool { inFlight.total < concurrency }

    /// Alerts handed over meanwhile: they start before anything waiting.
    mutating func takeAlerts(_ alerts: [OutboxItem]) {
        alertsTaken += alerts.count
        taken += alerts.count
        waiting.insert(contentsOf: alerts, at: 0)
    }

    /// Other work handed over meanwhile: it waits behind what is there, alerts first.
    mutating func take(_ offered: [OutboxItem]) {
        taken += offered.count
        waiting += Self.alertsFirst(offered)
    }

    /// What to do next.
    enum Next: Equatable {
        /// Send this one now (it is counted in flight).
        case start(OutboxItem)
        /// Nothing waiting may start: more handed-over work, up to `limit`, may join.
        case takeOffered(limit: Int)
        /// Nothing to start.
        case nothing
    }

    /// The first waiting delivery the lanes and the slots allow, leaving those too late for
    /// their lease.
    mutating func next(now: Date) -> Next {
        let free = pacing?.free(at: now) ?? [:]
        while true {
            guard
                let index = waiting.firstIndex(where: {
                    inFlight.allows($0, concurrency: concurrency, lanes: lanes) && free[$0.message.channel].map { $0 > 0 } ?? true
                })
            else {
                let room = limit - (taken - alertsTaken)
                return room > 0 ? .takeOffered(limit: min(batchSize, room)) : .nothing
            }
            let item = waiting.remove(at: index)
            // Too late to finish inside its lease: left for a claim once the lease ends.
            guard now <= item.leaseUntil.addingTimeInterval(-maxAttemptSeconds) else {
                tooLate += 1
                continue
            }
            // The slot was free a moment ago; this round is the only one taking this worker's.
            _ = pacing?.take(item.message.channel, at: now)
            inFlight.add(item)
            return .start(item)
        }
    }

    /// A send returned with its outcome.
    mutating func attempted(_ item: OutboxItem, _ outcome: AttemptOutcome, at: Date) {
        inFlight.remove(item)
        collected.append(
            Attempted(
                item: item,
                record: AttemptRecord(
                    deliveryID: item.message.deliveryID, outcome: outcome, at: at,
                    mayHaveBeenSentBefore: item.mayHaveBeenSent)))
    }

    /// A send that was about to start saw the worker stopping: it is given back.
    mutating func notStarted(_ item: OutboxItem) {
        inFlight.remove(item)
        givenBack.append(item)
    }

    /// The worker is stopping: nothing waiting starts; all of it is given back.
    mutating func stop() {
        givenBack += waiting
        waiting.removeAll()
    }

    /// The attempts to record now, all of them at once, unless a record is under way (what
    /// comes meanwhile waits for the next one).
    mutating func startRecording() -> [Attempted]? {
        guard !isRecording, !collected.isEmpty else { return nil }
        isRecording = true
        defer { collected.removeAll(keepingCapacity: true) }
        return collected
    }

    /// The record under way finished, with the store's error if it failed.
    mutating func recorded(_ error: (any Error)?) {
        isRecording = false
        if firstError == nil { firstError = error }
    }

    /// Nothing in flight and nothing recorded or to record.
    var isFinished: Bool { inFlight.total == 0 && !isRecording && collected.isEmpty }

    /// The round ends: it starts nothing more. What still waits found no slot of its channel's
    /// rate (with nothing in flight, the lanes hold nothing back): it goes back to the outbox.
    mutating func close() {
        isClosed = true
        pacedOut += waiting
        waiting.removeAll()
    }

    /// The deliveries attempted: everything taken but those too late and those given back.
    var attemptedCount: Int { taken - tooLate - givenBack.count - pacedOut.count }

    /// Alerts before daily calls and reminders before the rest, each in the order given
    /// (``CallPacing/rank(_:)``).
    static func alertsFirst(_ items: [OutboxItem]) -> [OutboxItem] {
        func rank(_ item: OutboxItem) -> Int { item.message.urgent ? 0 : CallPacing.rank(item.message.kind) }
        guard items.contains(where: { rank($0) > 0 }) else { return items }
        return items.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// The sends of a round in flight, counted the ways ``OutboxWorker/Lanes`` limits them.
    struct InFlight: Sendable {
        private(set) var total = 0
        private var others = 0
        private var byDestination: [String: Int] = [:]
        private var byRecipient: [UserID: Int] = [:]

        /// Whether `item` may start now.
        func allows(_ item: OutboxItem, concurrency: Int, lanes: OutboxWorker.Lanes) -> Bool {
            guard total < concurrency else { return false }
            if !item.message.urgent && others >= max(1, concurrency - lanes.alertReserve) { return false }
            if byRecipient[item.message.recipientID, default: 0] >= lanes.perRecipient { return false }
            if let host = item.destinationHost, byDestination[host, default: 0] >= lanes.perDestination { return false }
            return true
        }

        mutating func add(_ item: OutboxItem) { change(item, by: 1) }
        mutating func remove(_ item: OutboxItem) { change(item, by: -1) }

        private mutating func change(_ item: OutboxItem, by delta: Int) {
            total += delta
            if !item.message.urgent { others += delta }
            byRecipient[item.message.recipientID, default: 0] += delta
            if let host = item.destinationHost { byDestination[host, default: 0] += delta }
        }
    }

    /// An attempt made, waiting to be recorded (the item for the log).
    struct Attempted: Sendable {
        var item: OutboxItem
        var record: AttemptRecord
    }
}
