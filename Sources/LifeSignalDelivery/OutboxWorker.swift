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

    let store: any OutboxStore
    let registry: ChannelRegistry
    let policy: RetryPolicy
    let owner: String
    let now: @Sendable () -> Date
    let random: @Sendable () -> Double
    let logger: Logger
    let batchSize: Int
    let leaseSeconds: TimeInterval
    let concurrency: Int
    let maxAttemptSeconds: TimeInterval
    let metrics: DeliveryMetrics
    let lanes: Lanes
    /// The providers' rates (calls per second); nil: nothing paced.
    let pacing: DeliveryPacing?
    /// Tells this worker to stop claiming and starting sends, then to cut off those in flight.
    public let shutdown: WorkerShutdown
    /// Notes that sends are starting, many per write (see ``OutboxStore/markSending(_:owner:at:)``).
    let sendingMarks: SendingMarks

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
    ///   - pacing: the providers' rates this worker keeps to (see ``DeliveryPacing``); its slots
    ///     are read on `now`, so a test clock decides them.
    public init(
        store: any OutboxStore, registry: ChannelRegistry, policy: RetryPolicy = RetryPolicy(),
        owner: String, now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        logger: Logger = Logger(label: "lifesignal.delivery.outbox"), batchSize: Int = 20,
        leaseSeconds: TimeInterval = 120, concurrency: Int = 8, maxAttemptSeconds: TimeInterval = 45,
        metrics: DeliveryMetrics = .disabled, lanes: Lanes? = nil, shutdown: WorkerShutdown = WorkerShutdown(),
        pacing: DeliveryPacing? = nil
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
        self.pacing = pacing
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
        let items = try await claim()
        guard !items.isEmpty else {
            metrics.pulse?.beat(at: now(), attempted: 0)
            return 0
        }
        // Told to stop while claiming: none of it starts, all of it goes back at once.
        guard !shutdown.isStopping, !Task.isCancelled else {
            await giveBack(items)
            return 0
        }
        let round = await withTaskGroup(of: RoundEvent.self) { group in
            var round = DeliveryRound(
                claimed: items, batchSize: batchSize, concurrency: concurrency, lanes: lanes, maxAttemptSeconds: maxAttemptSeconds,
                pacing: pacing)
            // Cuts off the sends in flight once shutdown's grace is over (see ``WorkerShutdown``): their
            // tasks are cancelled, recorded as interrupted. Recording is never cancelled (a task of its own).
            group.addTask { await interruption() }
            feed(&round, &group)
            while let event = await group.next() {
                switch event {
                case let .attempted(item, outcome, at): round.attempted(item, outcome, at: at)
                case let .recorded(error): round.recorded(error)
                case let .notStarted(item): round.notStarted(item)
                case .offered: round.isWatching = false
                case .interrupt:
                    // Also cancels the watcher; the sends come back as `.attempted(…, .interrupted, …)`.
                    if !round.isClosed { group.cancelAll() }
                    continue
                }
                feed(&round, &group)
            }
            return round
        }
        return try await finish(round)
    }

    /// Polled work first (retries, fallbacks, a dead process's deliveries), so a stream of
    /// handed-over work never starves it; then what was handed over, up to a batch. A paced
    /// channel's deliveries only as many as its slots free now.
    private func claim() async throws -> [OutboxItem] {
        let claimedAt = now()
        let leaseUntil = claimedAt.addingTimeInterval(leaseSeconds)
        var items = try await store.claimDue(
            now: claimedAt, limit: batchSize, owner: owner, leaseUntil: leaseUntil, paced: pacing?.free(at: claimedAt) ?? [:])
        if items.count < batchSize {
            items += store.takeOffered(limit: batchSize - items.count, leasedPast: claimedAt.addingTimeInterval(maxAttemptSeconds))
        }
        return items
    }

    /// What happened in a round, as its tasks return.
    enum RoundEvent: Sendable {
        case attempted(OutboxItem, AttemptOutcome, Date)
        case notStarted(OutboxItem)
        case recorded((any Error)?)
        case offered
        case interrupt
    }

    /// Records what was collected (unless a record is under way: it waits for the next), then
    /// starts sends until the lanes are full or nothing is left to start; watches for
    /// handed-over work while sends are in flight, so an alert stored meanwhile starts at once
    /// instead of after the slowest send of the round; ends the round when nothing is in
    /// flight or to record. A send slot never waits for the database, and outcomes share
    /// commits instead of trickling in one by one.
    private func feed(_ round: inout DeliveryRound, _ group: inout TaskGroup<RoundEvent>) {
        if let batch = round.startRecording() {
            // Not cancelled with the round: an outcome that happened is always recorded.
            group.addTask { .recorded(await Task { await record(batch) }.value) }
        }
        guard !round.isClosed else { return }
        while round.hasFreeSlot, startNext(&round, &group) {}
        if shutdown.isStopping || Task.isCancelled { round.stop() }
        if round.inFlight.total > 0 {
            if !round.isWatching {
                round.isWatching = true
                group.addTask {
                    await store.workOffered()
                    return .offered
                }
            }
        } else if round.isFinished {
            // Nothing in flight, nothing to record: only the watcher is left.
            round.close()
            group.cancelAll()
        }
    }

    /// Starts the next send the round allows: alerts handed over meanwhile first, then what
    /// waits, then more handed-over work (up to the round's bound). False when there is
    /// nothing to start.
    private func startNext(_ round: inout DeliveryRound, _ group: inout TaskGroup<RoundEvent>) -> Bool {
        // Shutting down (or cancelled): no new send, whatever is waiting.
        guard !shutdown.isStopping, !Task.isCancelled else { return false }
        if round.alertRoom > 0 {
            round.takeAlerts(store.takeOffered(limit: round.alertRoom, leasedPast: leasedPast(), alertsOnly: true))
        }
        while true {
            switch round.next(now: now()) {
            case .start(let item):
                group.addTask { await send(item) }
                return true
            case .takeOffered(let limit):
                let offered = store.takeOffered(limit: limit, leasedPast: leasedPast(), alertsOnly: false)
                guard !offered.isEmpty else { return false }
                round.take(offered)
            case .nothing:
                return false
            }
        }
    }

    /// Handed-over work is taken only while its lease can still cover an attempt.
    private func leasedPast() -> Date { now().addingTimeInterval(maxAttemptSeconds) }

    /// Returns once shutdown's grace is over (see ``WorkerShutdown/interrupted()``).
    private func interruption() async -> RoundEvent {
        await shutdown.interrupted()
        return .interrupt
    }

    /// One send of a round, with its mark stored before the provider is called.
    private func send(_ item: OutboxItem) async -> RoundEvent {
        // The last look before the provider: a signal that came while this task was being set
        // up still stops it.
        guard !shutdown.isStopping, !Task.isCancelled else { return .notStarted(item) }
        // Stored before the provider is called (marks of sends starting together share one
        // write), so a worker that takes this over after a crash knows it may have gone out.
        await sendingMarks.mark(item)
        guard !shutdown.isStopping, !Task.isCancelled else { return .notStarted(item) }
        let outcome = await attempt(item)
        return .attempted(item, outcome, now())
    }

    /// After the round: what was not started goes back, what was too late is logged, the
    /// first store error is rethrown.
    private func finish(_ round: DeliveryRound) async throws -> Int {
        if !round.givenBack.isEmpty {
            await giveBack(round.givenBack)
        }
        if !round.pacedOut.isEmpty {
            // Back to the outbox at once: the next claim takes them as the slots free, alerts first.
            logger.debug("Deliveries waiting for their provider's rate, given back", metadata: ["count": "\(round.pacedOut.count)"])
            let store = store
            let owner = owner
            let items = round.pacedOut
            await Task { await store.release(items, owner: owner) }.value
        }
        if round.tooLate > 0 {
            logger.warning(
                "Claimed deliveries left for a later claim: too late to attempt inside their lease",
                metadata: ["count": "\(round.tooLate)"])
        }
        if let firstError = round.firstError { throw firstError }
        metrics.pulse?.beat(at: now(), attempted: round.attemptedCount)
        return round.attemptedCount
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
}
