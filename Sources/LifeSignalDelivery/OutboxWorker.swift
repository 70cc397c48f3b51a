import Foundation
import LifeSignalModels
import LifeSignalRules
import Logging

/// Drains the outbox: claims due deliveries under a lease, hands each to its channel's adapter,
/// and records what happened. Any number of workers may share one store.
///
/// A transient failure is retried on the same channel after ``RetryPolicy`` backoff until
/// `maxAttempts`, then failed; a permanent failure or a channel without an adapter fails at
/// once, and the store falls back to the recipient's next channel.
public struct OutboxWorker: Sendable {
    /// The reason recorded when no adapter serves a delivery's channel.
    public static let channelNotConfiguredReason = "channel not configured"

    private let store: any OutboxStore
    private let registry: ChannelRegistry
    private let policy: RetryPolicy
    private let owner: String
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let logger: Logger
    private let batchSize: Int
    private let leaseSeconds: TimeInterval
    private let concurrency: Int
    private let maxAttemptSeconds: TimeInterval
    private let metrics: DeliveryMetrics
    private let lanes: Lanes
    /// Tells this worker to stop claiming and starting sends, then to cut off those in flight.
    public let shutdown: WorkerShutdown
    /// Notes that sends are starting, many per write (see ``OutboxStore/markSending(_:owner:at:)``).
    private let sendingMarks: SendingMarks

    /// How the send slots are shared, so that one person's slow endpoints or a flood of
    /// drills and pings never holds up an alert about someone else.
    public struct Lanes: Sendable, Equatable {
        /// Slots only alerts may use: everything else together takes at most
        /// `concurrency - alertReserve` at once.
        public var alertReserve: Int
        /// Sends in flight at once to one host of a person's own URL (webhook, Web Push endpoint).
        public var perDestination: Int
        /// Sends in flight at once to one recipient.
        public var perRecipient: Int

        public init(alertReserve: Int, perDestination: Int, perRecipient: Int) {
            self.alertReserve = alertReserve
            self.perDestination = perDestination
            self.perRecipient = perRecipient
        }

        /// A quarter of the slots kept for alerts (none with a single slot); an eighth (at least
        /// two) per host and per recipient.
        public static func defaults(concurrency: Int) -> Lanes {
            Lanes(
                alertReserve: concurrency > 1 ? max(1, concurrency / 4) : 0, perDestination: max(2, concurrency / 8),
                perRecipient: max(2, concurrency / 8))
        }
    }

    /// - Parameters:
    ///   - owner: this worker's name on its leases (host and process, say); unique per worker.
    ///   - now: the clock for claims, records and retry dates.
    ///   - random: uniform values in `[0, 1)` for the backoff jitter.
    ///   - batchSize: deliveries claimed per round.
    ///   - leaseSeconds: how long a claim holds. A delivery is only re-claimed when its lease ran
    ///     out, so an attempt must never outlive it: see `maxAttemptSeconds`.
    ///   - concurrency: sends in flight at once.
    ///   - maxAttemptSeconds: the longest one attempt can take (the slowest adapter's timeouts). An
    ///     attempt is only started while it can finish inside the lease; a claimed delivery that
    ///     could not be started in time is left to be claimed again when its lease ends, so a
    ///     large batch behind slow providers is never sent twice.
    ///   - metrics: where attempts are counted and finished rounds reported.
    ///   - shutdown: how the worker is stopped gracefully (see ``WorkerShutdown``).
    public init(
        store: any OutboxStore, registry: ChannelRegistry, policy: RetryPolicy = RetryPolicy(),
        owner: String, now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        logger: Logger = Logger(label: "lifesignal.delivery.outbox"), batchSize: Int = 20,
        leaseSeconds: TimeInterval = 120, concurrency: Int = 8, maxAttemptSeconds: TimeInterval = 45,
        metrics: DeliveryMetrics = .disabled, lanes: Lanes? = nil, shutdown: WorkerShutdown = WorkerShutdown()
    ) {
        self.store = store
        self.registry = registry
        self.policy = policy
        self.owner = owner
        self.now = now
        self.random = random
        self.logger = logger
        self.batchSize = max(1, batchSize)
        self.leaseSeconds = leaseSeconds
        self.concurrency = max(1, concurrency)
        self.maxAttemptSeconds = maxAttemptSeconds
        self.metrics = metrics
        self.lanes = lanes ?? .defaults(concurrency: max(1, concurrency))
        self.shutdown = shutdown
        self.sendingMarks = SendingMarks(store: store, owner: owner, now: now)
    }

    /// Claims one batch, sends it (at most `concurrency` at once) and records every outcome.
    /// Deliveries the store hands over (``OutboxStore/takeOffered(limit:leasedPast:)``) fill the batch and,
    /// as they arrive, join the round, up to four batches in all.
    ///
    /// Every claimed item whose attempt can still finish inside the lease is attempted and
    /// recorded, even when recording another fails; the first store error is rethrown afterwards
    /// (an unrecorded item is retried when its lease ends).
    /// - Returns: how many deliveries it attempted.
    @discardableResult
    public func runOnce() async throws -> Int {
        guard !shutdown.isStopping else { return 0 }
        let claimedAt = now()
        let leaseUntil = claimedAt.addingTimeInterval(leaseSeconds)
        // Polled work first (retries, fallbacks, a dead process's deliveries), so a stream of
        // handed-over work never starves it; then what was handed over, up to a batch.
        var items = try await store.claimDue(now: claimedAt, limit: batchSize, owner: owner, leaseUntil: leaseUntil)
        if items.count < batchSize {
            items += store.takeOffered(limit: batchSize - items.count, leasedPast: claimedAt.addingTimeInterval(maxAttemptSeconds))
        }
        guard !items.isEmpty else {
            metrics.pulse?.beat(at: now(), attempted: 0)
            return 0
        }
        // Told to stop while claiming: none of it starts, all of it goes back at once.
        guard !shutdown.isStopping, !Task.isCancelled else {
            await giveBack(items)
            return 0
        }

        // At most `concurrency` sends in flight, shared by lanes (see ``Lanes``): alerts first
        // and with slots of their own, no host or recipient taking more than its share. Outcomes
        // are recorded as sends return, by one recording task at a time that takes everything
        // collected so far into one transaction: a send slot never waits for the database, and
        // outcomes share commits instead of trickling in one by one. While sends are in flight a
        // watcher wakes the round when work is handed over, so an alert stored meanwhile starts
        // at once instead of after the slowest send of the round.
        enum Step: Sendable {
            case attempted(OutboxItem, AttemptOutcome, Date)
            case notStarted(OutboxItem)
            case recorded((any Error)?)
            case offered
            case interrupt
        }
        let (firstError, unstarted, taken, leftUnstarted) = await withTaskGroup(of: Step.self) { group in
            var firstError: (any Error)?
            var waiting = Self.alertsFirst(items)
            var taken = items.count
            let roundLimit = Self.roundBatches * batchSize
            // Alerts handed over in the middle of a round have a bound of their own, so a slow
            // round still takes them, and a stream of them still lets polled work have its turn.
            var alertsTaken = 0
            var unstarted = 0
            var inFlight = InFlight()
            var collected: [Attempted] = []
            var recording = false
            var watching = false
            var closing = false
            // Claimed but never started because the worker is shutting down: given back.
            var givenBack: [OutboxItem] = []
            // Cuts off the sends in flight once shutdown's grace is over (see ``WorkerShutdown``):
            // their tasks are cancelled and recorded as interrupted. Recording is never cancelled
            // (it runs in a task of its own).
            group.addTask {
                await shutdown.interrupted()
                return .interrupt
            }
            func leasedPast() -> Date { now().addingTimeInterval(maxAttemptSeconds) }
            /// Starts the next send the lanes allow whose lease can still cover an attempt:
            /// alerts handed over meanwhile first, then what waits, then more handed-over work
            /// (up to the round's bound, so polled work — retries, fallbacks — still gets its
            /// turn while offers keep coming). Returns false when there is nothing to start.
            func startNext() -> Bool {
                // Shutting down (or cancelled): no new send, whatever is waiting.
                guard !shutdown.isStopping, !Task.isCancelled else { return false }
                let alertRoom = min(batchSize, roundLimit - alertsTaken)
                let alerts = alertRoom > 0 ? store.takeOffered(limit: alertRoom, leasedPast: leasedPast(), alertsOnly: true) : []
                if !alerts.isEmpty {
                    alertsTaken += alerts.count
                    taken += alerts.count
                    waiting.insert(contentsOf: alerts, at: 0)
                }
                while true {
                    guard let index = waiting.firstIndex(where: { inFlight.allows($0, concurrency: concurrency, lanes: lanes) })
                    else {
                        let room = roundLimit - (taken - alertsTaken)
                        guard room > 0 else { return false }
                        let offered = store.takeOffered(
                            limit: min(batchSize, room), leasedPast: leasedPast(), alertsOnly: false)
                        guard !offered.isEmpty else { return false }
                        taken += offered.count
                        waiting += Self.alertsFirst(offered)
                        continue
                    }
                    let item = waiting.remove(at: index)
                    // Too late to finish inside its lease: left for a claim once the lease ends.
                    guard now() <= item.leaseUntil.addingTimeInterval(-maxAttemptSeconds) else {
                        unstarted += 1
                        continue
                    }
                    inFlight.add(item)
                    group.addTask {
                        // The last look before the provider: a signal that came while this task
                        // was being set up still stops it.
                        guard !shutdown.isStopping, !Task.isCancelled else { return .notStarted(item) }
                        // Stored before the provider is called (marks of sends starting together
                        // share one write), so a worker that takes this over after a crash knows
                        // it may have gone out.
                        await sendingMarks.mark(item)
                        guard !shutdown.isStopping, !Task.isCancelled else { return .notStarted(item) }
                        let outcome = await attempt(item)
                        return .attempted(item, outcome, now())
                    }
                    return true
                }
            }
            /// Starts sends until the lanes are full or nothing is left to start; watches for
            /// handed-over work while sends are in flight, and ends the round when none is.
            func fillSlots() {
                guard !closing else { return }
                while inFlight.total < concurrency, startNext() {}
                if shutdown.isStopping || Task.isCancelled {
                    givenBack += waiting
                    waiting.removeAll()
                }
                if inFlight.total > 0 {
                    if !watching {
                        watching = true
                        group.addTask {
                            await store.workOffered()
                            return .offered
                        }
                    }
                } else if !recording && collected.isEmpty {
                    // Nothing in flight, nothing to record: only the watcher is left.
                    closing = true
                    group.cancelAll()
                }
            }
            func recordCollected() {
                guard !recording, !collected.isEmpty else { return }
                recording = true
                let batch = collected
                collected.removeAll(keepingCapacity: true)
                // Not cancelled with the round: an outcome that happened is always recorded.
                group.addTask { .recorded(await Task { await record(batch) }.value) }
            }
            fillSlots()
            while let step = await group.next() {
                switch step {
                case let .attempted(item, outcome, at):
                    inFlight.remove(item)
                    collected.append(
                        Attempted(
                            item: item,
                            record: AttemptRecord(
                                deliveryID: item.message.deliveryID, outcome: outcome, at: at,
                                mayHaveBeenSentBefore: item.mayHaveBeenSent)))
                    recordCollected()
                    fillSlots()
                case let .recorded(error):
                    recording = false
                    if firstError == nil { firstError = error }
                    recordCollected()
                    fillSlots()
                case .notStarted(let item):
                    inFlight.remove(item)
                    givenBack.append(item)
                    fillSlots()
                case .offered:
                    watching = false
                    fillSlots()
                case .interrupt:
                    // Also cancels the watcher; the sends come back as `.attempted(…, .interrupted, …)`.
                    if !closing { group.cancelAll() }
                }
            }
            return (firstError, unstarted, taken, givenBack)
        }
        if !leftUnstarted.isEmpty {
            await giveBack(leftUnstarted)
        }
        if unstarted > 0 {
            logger.warning(
                "Claimed deliveries left for a later claim: too late to attempt inside their lease",
                metadata: ["count": "\(unstarted)"])
        }
        if let firstError { throw firstError }
        let attempted = taken - unstarted - leftUnstarted.count
        metrics.pulse?.beat(at: now(), attempted: attempted)
        return attempted
    }

    /// Claimed deliveries this worker will not attempt (it is shutting down), back to the
    /// outbox at once for another worker or the next run. In a task of its own: the caller may
    /// be cancelled, and the store still has writing to do.
    private func giveBack(_ items: [OutboxItem]) async {
        logger.notice(
            "Shutting down: claimed deliveries given back unsent", metadata: ["count": "\(items.count)"])
        let store = store
        let owner = owner
        await Task { await store.release(items, owner: owner) }.value
    }

    /// A round takes at most this many batches: its claim, then what is handed over meanwhile.
    static let roundBatches = 4

    /// Alerts before reminders before the rest, each in the order given.
    static func alertsFirst(_ items: [OutboxItem]) -> [OutboxItem] {
        func rank(_ item: OutboxItem) -> Int { item.message.urgent ? 0 : item.message.kind == .reminder ? 1 : 2 }
        guard items.contains(where: { rank($0) > 0 }) else { return items }
        return items.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// The sends of a round in flight, counted the ways ``Lanes`` limits them.
    struct InFlight {
        private(set) var total = 0
        private var others = 0
        private var byDestination: [String: Int] = [:]
        private var byRecipient: [UserID: Int] = [:]

        /// Whether `item` may start now.
        func allows(_ item: OutboxItem, concurrency: Int, lanes: Lanes) -> Bool {
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

    /// Calls ``runOnce()`` until the task is cancelled, pausing `pollInterval` only when nothing
    /// was due (or less, when the store offers work first). Store errors are logged and waited
    /// out, never fatal. Returns on cancellation, once the store knows the worker stopped.
    public func run(pollInterval: Duration) async throws {
        try await run(pollInterval: pollInterval, clock: ContinuousClock())
    }

    /// ``run(pollInterval:)`` with the clock to sleep on.
    public func run<C: Clock>(pollInterval: C.Duration, clock: C) async throws {
        await poll(every: pollInterval, clock: clock)
        // In a task of its own: this one is cancelled, and the store still has writing to do.
        await Task { await store.workerStopped() }.value
    }

    private func poll<C: Clock>(every pollInterval: C.Duration, clock: C) async {
        while !Task.isCancelled && !shutdown.isStopping {
            var handled = 0
            do {
                handled = try await runOnce()
            } catch is CancellationError {
                return
            } catch {
                logger.error("Outbox round failed", metadata: ["error": "\(String(reflecting: error))"])
            }
            if handled == 0 {
                // Until the next poll, or until the store says work came in.
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await clock.sleep(for: pollInterval) }
                    group.addTask { await store.workOffered() }
                    group.addTask { await shutdown.stopped() }
                    await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    /// Sends one item and decides its outcome, without recording it.
    public func attempt(_ item: OutboxItem) async -> AttemptOutcome {
        let message = item.message
        guard let adapter = registry.adapter(for: message.channel) else {
            return .failed(reason: Self.channelNotConfiguredReason)
        }
        let attempt = item.attempts + 1
        do {
            let receipt = try await adapter.send(message)
            // (A receipt is the provider's answer: recorded as it is, even during shutdown.)
            return switch receipt.status {
            case .delivered: .delivered(providerID: receipt.providerID)
            case .sent, .queued, .failed: .sent(providerID: receipt.providerID)
            }
        } catch {
            // Cut off by shutdown (its grace period over, the send's task is cancelled) or by
            // cancellation: the provider did not fail it; nothing is known but that it was
            // interrupted.
            if Task.isCancelled { return .interrupted }
            let failure: DeliveryLifecycle.AttemptFailure =
                switch error {
                case .permanent(let reason): .permanent(reason: reason)
                case .transient(let reason): .transient(reason: reason)
                }
            switch DeliveryLifecycle.afterAttempt(
                failure, attempt: attempt, maxAttempts: policy.maxAttempts, now: now(),
                backoff: { policy.delay(afterAttempt: $0, unitRandom: random()) })
            {
            case let .retry(at, reason): return .retry(at: at, reason: reason)
            case let .failed(reason): return .failed(reason: reason)
            }
        }
    }

    /// An attempt made, waiting to be recorded (the item for the log).
    private struct Attempted: Sendable {
        var item: OutboxItem
        var record: AttemptRecord
    }

    /// Records what a batch of attempts did, in one transaction; returns the store's error, if any.
    /// When the batch cannot be recorded, each attempt is recorded on its own, so one bad row
    /// never leaves the others unrecorded.
    private func record(_ batch: [Attempted]) async -> (any Error)? {
        do {
            try await store.record(batch.map(\.record))
            for attempted in batch {
                log(attempted)
                metrics.attempted(channel: attempted.item.message.channel.rawValue, outcome: attempted.record.outcome)
            }
            return nil
        } catch {
            guard batch.count > 1 else {
                var failure = metadata(batch[0])
                failure["error"] = "\(String(reflecting: error))"
                logger.error("Could not record a delivery attempt", metadata: failure)
                return error
            }
            var firstError: (any Error)?
            for attempted in batch {
                if let error = await record([attempted]), firstError == nil { firstError = error }
            }
            return firstError
        }
    }

    private func log(_ attempted: Attempted) {
        switch attempted.record.outcome {
        case .sent, .delivered: logger.info("Delivery attempt succeeded", metadata: metadata(attempted))
        case .retry: logger.notice("Delivery attempt will be retried", metadata: metadata(attempted))
        case .failed: logger.warning("Delivery failed on this channel", metadata: metadata(attempted))
        case .interrupted: logger.notice("Delivery attempt interrupted by shutdown", metadata: metadata(attempted))
        }
    }

    /// Built only when a message is actually logged (the parameter is an autoclosure): describing
    /// the outcome goes through reflection, which cost more than the whole attempt on the log channel.
    private func metadata(_ attempted: Attempted) -> Logger.Metadata {
        [
            "delivery": "\(attempted.item.message.deliveryID)", "channel": "\(attempted.item.message.channel.rawValue)",
            "attempt": "\(attempted.item.attempts + 1)", "outcome": "\(attempted.record.outcome)",
        ]
    }
}
