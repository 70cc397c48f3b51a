import LifeSignalTestSupport
import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Logging
import Synchronization
import Testing

@Suite struct OutboxWorkerTests {
    /// A webhook endpoint answering `status`, counting what it received per delivery id.
    static func endpoint(status: HTTPResponse.Status, received: Recorder<String>) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let payload = try WebhookPayload.decoder.decode(WebhookPayload.self, from: Data(buffer: body))
            await received.append(payload.deliveryID.description)
            return Response(status: status)
        }
        return router
    }

    static func message(_ n: Int, port: Int, channel: ChannelKind = .webhook) -> OutgoingMessage {
        .fixture(
            channel: channel, address: "http://127.0.0.1:\(port)/hook",
            deliveryID: DeliveryID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!))
    }

    func worker(
        store: InMemoryOutboxStore, clock: ManualNow, owner: String = "worker-1",
        adapters: [any ChannelAdapter]? = nil, batchSize: Int = 10, concurrency: Int = 4
    ) -> OutboxWorker {
        OutboxWorker(
            store: store,
            registry: ChannelRegistry(
                adapters ?? [
                    WebhookChannel(configuration: .init(secret: "s", allowPrivateNetworks: true), httpClient: .shared, now: { clock.now })
                ]),
            policy: RetryPolicy(maxAttempts: 5, base: .seconds(5), cap: .seconds(600)),
            owner: owner, now: { clock.now }, random: { 0.5 }, batchSize: batchSize,
            leaseSeconds: 60, concurrency: concurrency)
    }

    @Test func sendsDueDeliveriesAndRecordsThem() async throws {
        let received = Recorder<String>()
        try await withLocalServer(Self.endpoint(status: .ok, received: received)) { port in
            let clock = ManualNow(fixedNow)
            let store = InMemoryOutboxStore()
            for n in 1...3 { await store.enqueue(Self.message(n, port: port), dueAt: fixedNow) }
            await store.enqueue(Self.message(4, port: port), dueAt: fixedNow + 60)  // not due yet

            let handled = try await worker(store: store, clock: clock).runOnce()

            #expect(handled == 3)
            #expect(await received.count == 3)
            for n in 1...3 {
                let row = try #require(await store.row(Self.message(n, port: port).deliveryID))
                #expect(row.status == .delivered)
                #expect(row.attempts == 1)
                #expect(row.providerID == Self.message(n, port: port).deliveryID.description)
            }
            #expect(await store.row(Self.message(4, port: port).deliveryID)?.status == .queued)
            #expect(try await worker(store: store, clock: clock).runOnce() == 0)
        }
    }

    @Test func transientFailuresBackOffExponentiallyWithJitterThenFail() async throws {
        let received = Recorder<String>()
        try await withLocalServer(Self.endpoint(status: .serviceUnavailable, received: received)) { port in
            let clock = ManualNow(fixedNow)
            let store = InMemoryOutboxStore()
            let id = Self.message(1, port: port).deliveryID
            await store.enqueue(Self.message(1, port: port), dueAt: fixedNow)
            let worker = worker(store: store, clock: clock)

            // random() = 0.5, so each wait is half its ceiling: 5, 10, 20, 40 s → 2.5, 5, 10, 20 s.
            var expectedDue = fixedNow
            for (attempt, wait) in [(1, 2.5), (2, 5.0), (3, 10.0), (4, 20.0)] {
                clock.set(expectedDue)
                #expect(try await worker.runOnce() == 1)
                expectedDue = expectedDue + wait
                let row = try #require(await store.row(id))
                #expect(row.attempts == attempt)
                #expect(row.status == .queued)
                #expect(
                    row.history.last?.outcome
                        == .retry(at: expectedDue, reason: "The webhook endpoint answered with an error."))
                // Not due a moment before its time.
                clock.set(expectedDue - 0.001)
                #expect(try await worker.runOnce() == 0)
            }
            clock.set(expectedDue)
            #expect(try await worker.runOnce() == 1)
            let row = try #require(await store.row(id))
            #expect(row.status == .failed)
            #expect(row.attempts == 5)
            #expect(row.reason == "The webhook endpoint answered with an error. Gave up after 5 attempts.")
            #expect(await received.count == 5)
        }
    }

    @Test func permanentFailureFailsAtOnce() async throws {
        let received = Recorder<String>()
        try await withLocalServer(Self.endpoint(status: .gone, received: received)) { port in
            let clock = ManualNow(fixedNow)
            let store = InMemoryOutboxStore()
            await store.enqueue(Self.message(1, port: port), dueAt: fixedNow)
            #expect(try await worker(store: store, clock: clock).runOnce() == 1)
            let row = try #require(await store.row(Self.message(1, port: port).deliveryID))
            #expect(row.status == .failed)
            #expect(row.attempts == 1)
            #expect(row.history.map(\.outcome) == [.failed(reason: "The webhook endpoint answered with an error.")])
        }
    }

    @Test func aChannelWithoutAnAdapterFails() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let message = Self.message(1, port: 9, channel: .sms)
        await store.enqueue(message, dueAt: fixedNow)
        #expect(try await worker(store: store, clock: clock, adapters: [LogChannel()]).runOnce() == 1)
        #expect(await store.row(message.deliveryID)?.history.map(\.outcome) == [.failed(reason: "channel not configured")])
    }

    @Test func twoWorkersSharingAStoreNeverSendOneDeliveryTwice() async throws {
        let received = Recorder<String>()
        try await withLocalServer(Self.endpoint(status: .ok, received: received)) { port in
            let clock = ManualNow(fixedNow)
            let store = InMemoryOutboxStore()
            let count = 40
            for n in 1...count { await store.enqueue(Self.message(n, port: port), dueAt: fixedNow) }
            let workers = [
                worker(store: store, clock: clock, owner: "a", batchSize: 3, concurrency: 3),
                worker(store: store, clock: clock, owner: "b", batchSize: 3, concurrency: 3),
            ]
            let handled = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in workers {
                    group.addTask {
                        var total = 0
                        while true {
                            let handled = try await worker.runOnce()
                            if handled == 0 { break }
                            total += handled
                        }
                        return total
                    }
                }
                return try await group.reduce(0, +)
            }

            #expect(handled == count)
            let ids = await received.values
            #expect(ids.count == count)
            #expect(Set(ids).count == count)
            let claims = await store.claims
            #expect(claims.count == count)
            #expect(Set(claims.map(\.owner)) == ["a", "b"], "both workers took part")
            for n in 1...count {
                #expect(await store.row(Self.message(n, port: port).deliveryID)?.status == .delivered)
            }
        }
    }

    /// An adapter that answers at once and counts its answers, so a test can hold the first
    /// record until every send has answered: the other outcomes then finish while a record
    /// runs, every time, instead of when a pause happens to make them overlap.
    final class CountingAdapter: ChannelAdapter {
        let kind: ChannelKind = .log
        let expected: Int
        private let state = Mutex<(answered: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

        init(expected: Int) { self.expected = expected }

        func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
            let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.answered += 1
                guard state.answered == expected else { return [] }
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in woken { waiter.resume() }
            return ChannelReceipt(status: .delivered, providerID: message.deliveryID.description)
        }

        /// Returns once `expected` sends have answered.
        func allAnswered() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.answered >= expected { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    @Test func outcomesShareTransactionsAndEachIsRecordedOnce() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let messages = (1...60).map { Self.message($0, port: 1, channel: .log) }
        for message in messages { await store.enqueue(message, dueAt: fixedNow) }
        let adapter = CountingAdapter(expected: 60)
        await store.holdNextRecord { await adapter.allAnswered() }
        let worker = worker(store: store, clock: clock, adapters: [adapter], batchSize: 60, concurrency: 8)

        #expect(try await worker.runOnce() == 60)

        for message in messages {
            let row = try #require(await store.row(message.deliveryID))
            #expect(row.status == .delivered)
            #expect(row.attempts == 1)
            #expect(row.leaseOwner == nil)
        }
        let batches = await store.recordBatches
        #expect(batches.reduce(0, +) == 60)
        #expect(batches.count < 60, "outcomes that finish while a record runs are recorded together")
    }

    @Test func anOutcomeThatCannotBeRecordedDoesNotHoldUpTheOthers() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let messages = (1...20).map { Self.message($0, port: 1, channel: .log) }
        for message in messages { await store.enqueue(message, dueAt: fixedNow) }
        let poisoned = messages[7].deliveryID
        await store.refuseToRecord(poisoned)
        let adapter = CountingAdapter(expected: 20)
        await store.holdNextRecord { await adapter.allAnswered() }
        let worker = worker(store: store, clock: clock, adapters: [adapter], batchSize: 20, concurrency: 8)

        await #expect(throws: FakeServerError.self) { try await worker.runOnce() }

        for message in messages where message.deliveryID != poisoned {
            #expect(await store.row(message.deliveryID)?.attempts == 1)
        }
        // Unrecorded: still leased to the worker, so it is retried once the lease ends.
        let row = try #require(await store.row(poisoned))
        #expect(row.attempts == 0)
        #expect(row.leaseOwner == "worker-1")
    }

    /// A provider that takes ten seconds (on the test clock) to answer.
    struct TenSecondAdapter: ChannelAdapter {
        let kind: ChannelKind = .log
        let clock: ManualNow
        func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
            clock.set(clock.now.addingTimeInterval(10))
            return ChannelReceipt(status: .delivered)
        }
    }

    @Test func anAttemptThatCouldOutliveItsLeaseIsNotStarted() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let messages = (1...5).map { Self.message($0, port: 1, channel: .log) }
        for message in messages { await store.enqueue(message, dueAt: fixedNow) }
        // Lease 60 s, attempts up to 45 s: an attempt may start until 15 s after the claim.
        let worker = OutboxWorker(
            store: store, registry: ChannelRegistry([TenSecondAdapter(clock: clock)]), owner: "worker-1",
            now: { clock.now }, batchSize: 5, leaseSeconds: 60, concurrency: 1, maxAttemptSeconds: 45)

        #expect(try await worker.runOnce() == 2)  // started at 0 s and 10 s; the third would start at 20 s

        var rows: [InMemoryOutboxStore.Row] = []
        for message in messages { rows.append(try #require(await store.row(message.deliveryID))) }
        #expect(rows.map(\.attempts) == [1, 1, 0, 0, 0])
        #expect(rows.dropFirst(2).allSatisfy { $0.status == .queued && $0.leaseOwner == "worker-1" })
        // Still leased: nobody takes them before the lease ends...
        #expect(try await worker.runOnce() == 0)
        // ...and after it, they are claimed and sent again from the start.
        clock.set(fixedNow.addingTimeInterval(61))
        #expect(try await worker.runOnce() == 2)
        #expect(await store.row(messages[2].deliveryID)?.attempts == 1)
    }

    @Test func handedOverDeliveriesFollowPolledOnesAndJoinTheRoundUpToFourBatches() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let polled = (1...2).map { Self.message($0, port: 0, channel: .log) }
        for message in polled { await store.enqueue(message, dueAt: fixedNow) }
        // Not alerts (those have a bound of their own: see the lane tests).
        let handed = (3...12).map { n in
            var message = Self.message(n, port: 0, channel: .log)
            message.kind = .drill
            message.urgent = false
            return message
        }
        for message in handed {
            await store.offer(message, dueAt: fixedNow, leasedTo: "worker-1", until: fixedNow.addingTimeInterval(60))
        }
        let worker = worker(
            store: store, clock: clock, adapters: [LogChannel(logger: Logger(label: "test"))], batchSize: 2, concurrency: 1)

        // The polled batch, then handed-over work as sends free up, four batches in all.
        #expect(try await worker.runOnce() == 8)
        #expect(await store.claims.map(\.id) == polled.map(\.deliveryID), "handed-over work is never claimed again")
        #expect(try await worker.runOnce() == 4)
        #expect(try await worker.runOnce() == 0)
        for message in polled + handed {
            #expect(await store.row(message.deliveryID)?.status == .delivered)
            #expect(await store.row(message.deliveryID)?.attempts == 1)
        }
    }

    @Test func runKeepsDrainingUntilCancelled() async throws {
        let received = Recorder<String>()
        try await withLocalServer(Self.endpoint(status: .ok, received: received)) { port in
            let clock = ManualNow(fixedNow)
            let store = InMemoryOutboxStore()
            for n in 1...5 { await store.enqueue(Self.message(n, port: port), dueAt: fixedNow) }
            let worker = worker(store: store, clock: clock, batchSize: 2, concurrency: 2)

            let running = Task { try await worker.run(pollInterval: .milliseconds(20)) }
            var recorded = Set<DeliveryID>()
            for await id in store.recorded {
                recorded.insert(id)
                if recorded.count == 5 { break }
            }
            running.cancel()
            try await running.value

            #expect(recorded.count == 5)
            #expect(await received.count == 5)
        }
    }
}

/// The worker's side of graceful shutdown (the service's, over the real store, is in the core
/// tests' `GracefulShutdownTests`).
@Suite struct OutboxWorkerShutdownTests {
    /// A provider that never answers: each send waits until its task is cancelled, then fails
    /// the way a cut HTTP request does.
    struct HangingChannel: ChannelAdapter {
        let kind: ChannelKind = .sms
        let started: AsyncStream<DeliveryID>.Continuation

        func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
            started.yield(message.deliveryID)
            try? await Task.sleep(for: .seconds(3600))
            throw .transient("The SMS provider could not be reached.")
        }
    }

    func worker(store: InMemoryOutboxStore, clock: ManualNow, adapter: any ChannelAdapter) -> OutboxWorker {
        OutboxWorker(
            store: store, registry: ChannelRegistry([adapter]), policy: RetryPolicy(maxAttempts: 5),
            owner: "worker-1", now: { clock.now }, random: { 0.5 }, batchSize: 10, leaseSeconds: 60, concurrency: 1)
    }

    static func message(_ n: Int) -> OutgoingMessage {
        .fixture(
            channel: .sms, address: "+15550000\(100 + n)",
            deliveryID: DeliveryID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!))
    }

    @Test func aStoppedWorkerClaimsNothingAndItsPollEnds() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        await store.enqueue(Self.message(1), dueAt: fixedNow)
        let (started, starting) = AsyncStream<DeliveryID>.makeStream()
        let worker = worker(store: store, clock: clock, adapter: HangingChannel(started: starting))
        worker.shutdown.stop()
        // Returns by itself (an hour's poll interval, no cancellation).
        try await worker.run(pollInterval: .seconds(3600))
        #expect(try await worker.runOnce() == 0)
        #expect(await store.claims.isEmpty)
        starting.finish()
        for await id in started { Issue.record("sent \(id) after the signal") }
    }

    /// The grace period is over with a send in flight: it is recorded as interrupted — due at
    /// once, no attempt used, never "could not be reached" — and what was claimed behind it
    /// is given back unsent, its lease cleared.
    @Test func aSendCutOffByShutdownIsInterruptedAndTheRestGivenBack() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        for n in 1...3 { await store.enqueue(Self.message(n), dueAt: fixedNow) }
        let (started, starting) = AsyncStream<DeliveryID>.makeStream()
        let worker = worker(store: store, clock: clock, adapter: HangingChannel(started: starting))
        let round = Task { try await worker.runOnce() }
        var sends = started.makeAsyncIterator()
        let first = try #require(await sends.next())
        clock.set(fixedNow + 7)
        worker.shutdown.stop()
        worker.shutdown.interruptSends()
        #expect(try await round.value == 1)

        let row = try #require(await store.row(first))
        #expect(row.status == .queued && row.attempts == 0 && row.leaseOwner == nil)
        #expect(row.history.map(\.outcome) == [.interrupted])
        #expect(row.dueAt == fixedNow + 7)
        #expect(row.reason == WorkerShutdown.interruptedReason)
        let others = (1...3).map { Self.message($0).deliveryID }.filter { $0 != first }
        #expect(await store.released == others)
        for id in others {
            let row = try #require(await store.row(id))
            #expect(row.attempts == 0 && row.leaseOwner == nil && row.history.isEmpty)
        }
        starting.finish()
        var later: [DeliveryID] = []
        while let id = await sends.next() { later.append(id) }
        #expect(later.isEmpty, "a send started after the signal")
    }
}

@Suite struct RetryPolicyTests {
    @Test func ceilingsDoubleFromBaseUpToTheCap() {
        let policy = RetryPolicy()
        #expect((1...9).map { policy.ceiling(afterAttempt: $0) } == [5, 10, 20, 40, 80, 160, 320, 600, 600])
        #expect(policy.ceiling(afterAttempt: 1000) == 600)
    }

    @Test func fullJitterScalesTheCeilingByTheRandomValue() {
        let policy = RetryPolicy(base: .seconds(5), cap: .seconds(600))
        #expect(policy.delay(afterAttempt: 3, unitRandom: 0) == 0)
        #expect(policy.delay(afterAttempt: 3, unitRandom: 0.25) == 5)
        #expect(policy.delay(afterAttempt: 9, unitRandom: 0.5) == 300)
    }

    @Test func retriesUntilMaxAttempts() {
        let policy = RetryPolicy(maxAttempts: 3)
        #expect(policy.allowsRetry(afterAttempt: 1))
        #expect(policy.allowsRetry(afterAttempt: 2))
        #expect(!policy.allowsRetry(afterAttempt: 3))
    }
}
