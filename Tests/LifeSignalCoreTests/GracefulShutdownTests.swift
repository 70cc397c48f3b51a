import Foundation
import LifeSignalTestSupport
@testable import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
@_spi(Testing) import LifeSignalStore
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// SIGTERM in the middle of a burst of alerts: the worker starts nothing after the signal, the
/// sends in flight finish (or are cut off after the grace period and recorded as interrupted,
/// not failed), what it had not started goes back to the outbox at once, and no timeline says
/// anything that did not happen.
@Suite("Graceful shutdown of the delivery worker")
struct GracefulShutdownTests {
    /// Ada and twelve responders; the alert she raises makes a burst of deliveries (the alerts,
    /// and what Ada herself is told), all on the server's default channel.
    static let responders = 12

    func burst(concurrency: Int) async throws -> (TestWorld, Caller) {
        var configuration = ServiceConfiguration()
        configuration.deliveryConcurrency = concurrency
        let world = try await TestWorld(configuration: configuration)
        let ada = try await world.signUp("Ada", phone: "+447700900300")
        for n in 0..<Self.responders {
            let responder = try await world.signUp("Responder", phone: String(format: "+4477009004%02d", n))
            try await world.link(responder: responder, dependent: ada)
        }
        // What linking sent, out of the way first.
        let quick = DeliveryService.worker(
            for: world.core,
            registry: ChannelRegistry([LogChannel(logger: Logger(label: "setup", factory: { _ in SwiftLogNoOpLogHandler() }))]),
            owner: "setup")
        while try await quick.runOnce() > 0 {}
        quick.shutdown.stop()
        return (world, ada)
    }

    /// The N-th send of the round is where the signal arrives (`stopAt`); that one and those
    /// still in flight wait for the test (`provider.finish()`), or for their task to be cancelled
    /// (then they fail the way an HTTP provider does when its request is cut off).
    @Test func noSendStartsAfterTheSignalAndThoseInFlightFinish() async throws {
        let (world, ada) = try await burst(concurrency: 4)
        let provider = SlowProvider(holdFrom: 5)
        let worker = DeliveryService.worker(for: world.core, registry: provider.registry, owner: "run-1")
        provider.watch(worker.shutdown, stoppingAtSend: 5)
        _ = try await world.incidents.raiseAlert(ada)
        // Runs as the server runs it: polling, stopping by itself once told to.
        let running = Task { try await worker.run(pollInterval: .seconds(3600)) }
        try await provider.waitUntilStarted(5)
        provider.finish()
        try await running.value

        let started = provider.started
        #expect(started.count >= 5 && started.count <= 5 + 3, "at most the sends in flight when the signal came")
        #expect(provider.startedAfterStop.count <= 3, "a send started after the signal")
        let rows = try await Self.deliveries(world)
        #expect(rows.count > started.count, "the signal came in the middle of the burst")
        // Every send started is recorded as what it was: sent. The rest are queued, untried,
        // unleased: any worker takes them at once.
        #expect(Set(rows.filter { $0.status == "sent" }.map(\.id)) == Set(started.map(\.description)))
        for row in rows where row.status != "sent" {
            #expect(row.status == "queued" && row.attempts == 0 && row.leaseOwner == nil && row.reason == nil)
        }
        try await Self.expectNoFalseHistory(world, ada)

        // The next run sends the rest, each once: nothing was in doubt, so nothing twice.
        let next = SlowProvider(holdFrom: .max)
        let nextWorker = DeliveryService.worker(for: world.core, registry: next.registry, owner: "run-2")
        while try await nextWorker.runOnce() > 0 {}
        #expect(Set(next.started).isDisjoint(with: Set(started)))
        #expect(next.started.count + started.count == rows.count)
        #expect(try await Self.deliveries(world).allSatisfy { $0.status == "sent" })
        #expect(try await Self.deliveries(world).allSatisfy { $0.reason == nil }, "a send nobody doubted is marked")
    }

    /// The grace period ran out with sends still in flight: they are cut off and recorded as
    /// interrupted — queued, due at once, the attempt not counted, no timeline entry — never as
    /// "the provider could not be reached". Only those can go out twice.
    @Test func sendsCutOffAfterTheGracePeriodAreInterruptedNotFailed() async throws {
        let (world, ada, provider) = try await aBurstCutOffByShutdown()

        let cutOff = provider.cutOff
        #expect(!cutOff.isEmpty && cutOff.count <= 4)
        #expect(provider.startedAfterStop.count <= 3, "a send started after the signal")
        let rows = try await Self.deliveries(world)
        let interrupted = rows.filter { $0.reason == WorkerShutdown.interruptedReason }
        #expect(Set(interrupted.map(\.id)) == Set(cutOff.map(\.description)))
        for row in interrupted {
            #expect(row.status == "queued" && row.attempts == 0 && row.leaseOwner == nil)
            #expect(row.nextAttemptAt.map { $0 <= world.core.now } == true, "due again at once")
        }
        #expect(!rows.contains { $0.status == "failed" })
        try await Self.expectNoFalseHistory(world, ada)

        // The next run sends everything not sent: the interrupted ones again (the only possible
        // duplicates, at most what was in flight), the rest for the first time.
        let next = SlowProvider(holdFrom: .max)
        let nextWorker = DeliveryService.worker(for: world.core, registry: next.registry, owner: "run-2")
        while try await nextWorker.runOnce() > 0 {}
        let twice = Set(next.started).intersection(Set(provider.started))
        #expect(twice == Set(cutOff))
        let after = try await Self.deliveries(world)
        #expect(after.allSatisfy { $0.status == "sent" && $0.attempts == 1 })
        // Those copies say so, on the delivery and in the history: who was reached stays honest.
        #expect(Set(after.filter { $0.reason == StoreOutbox.possibleDuplicateReason }.map(\.id)) == Set(cutOff.map(\.description)))
        let doubted = try await world.timeline.timeline(ada).filter { $0.summary.contains("may have been sent twice") }
        #expect(doubted.count == cutOff.count)
    }

    /// An alert's burst whose worker is told to stop at its third send, with the grace period
    /// over at once: the sends in flight then are cut off.
    func aBurstCutOffByShutdown() async throws -> (TestWorld, Caller, SlowProvider) {
        let (world, ada) = try await burst(concurrency: 4)
        let provider = SlowProvider(holdFrom: 3)
        let worker = DeliveryService.worker(for: world.core, registry: provider.registry, owner: "run-1")
        provider.watch(worker.shutdown, stoppingAtSend: 3)
        _ = try await world.incidents.raiseAlert(ada)
        let running = Task { try await worker.run(pollInterval: .seconds(3600)) }
        try await provider.waitUntilStarted(3)
        worker.shutdown.interruptSends()
        try await running.value
        return (world, ada, provider)
    }

    /// Where the provider can say it already has a cut-off send's copy (Twilio's message list),
    /// the next run asks it and records that copy as sent, once: not sent again, not doubted.
    @Test func aCutOffSendTheProviderConfirmsIsNotSentAgain() async throws {
        let (world, ada, provider) = try await aBurstCutOffByShutdown()
        let cutOff = Set(provider.cutOff)
        #expect(!cutOff.isEmpty)

        let remembering = RememberingProvider()
        let nextWorker = DeliveryService.worker(for: world.core, registry: ChannelRegistry([remembering]), owner: "run-2")
        while try await nextWorker.runOnce() > 0 {}
        #expect(remembering.asked == cutOff, "only the cut-off sends are looked for at the provider")
        #expect(remembering.sent.isDisjoint(with: cutOff), "a copy the provider has is not sent again")
        let after = try await Self.deliveries(world)
        #expect(after.allSatisfy { $0.status == "sent" && $0.attempts == 1 })
        #expect(Set(after.filter { $0.reason == StoreOutbox.foundAtProviderReason }.map(\.id)) == Set(cutOff.map(\.description)))
        #expect(!after.contains { $0.reason == StoreOutbox.possibleDuplicateReason })
        #expect(try await world.timeline.timeline(ada).allSatisfy { !$0.summary.contains("may have been sent twice") })
    }

    /// Cancellation (the service group gave up waiting) is no provider failure either.
    @Test func aCancelledWorkerRecordsItsSendsAsInterrupted() async throws {
        let (world, ada) = try await burst(concurrency: 4)
        let provider = SlowProvider(holdFrom: 2)
        let worker = DeliveryService.worker(for: world.core, registry: provider.registry, owner: "run-1")
        _ = try await world.incidents.raiseAlert(ada)
        let running = Task { try await worker.run(pollInterval: .seconds(3600)) }
        try await provider.waitUntilStarted(2)
        running.cancel()
        try await running.value

        #expect(!provider.cutOff.isEmpty)
        let rows = try await Self.deliveries(world)
        #expect(!rows.contains { $0.status == "failed" })
        #expect(rows.filter { $0.status == "queued" }.allSatisfy { $0.attempts == 0 && $0.leaseOwner == nil })
        try await Self.expectNoFalseHistory(world, ada)
    }

    /// The service in a service group: graceful shutdown stops it at once, the grace period
    /// bounds the sends in flight (here 50 ms, held forever otherwise), and it returns.
    @Test func theServiceCutsOffSendsWhenItsGracePeriodEnds() async throws {
        let (world, ada) = try await burst(concurrency: 4)
        let provider = SlowProvider(holdFrom: 1)
        let worker = DeliveryService.worker(for: world.core, registry: provider.registry, owner: "run-1")
        provider.watch(worker.shutdown)
        let service = DeliveryService(worker: worker, pollInterval: .seconds(3600), shutdownGrace: .milliseconds(50))
        let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
        _ = try await world.incidents.raiseAlert(ada)
        let running = Task { try await group.run() }
        try await provider.waitUntilStarted(1)
        await group.triggerGracefulShutdown()
        try await withFailureDeadline(seconds: 30, "the service did not stop after its grace period") {
            try await running.value
        }
        #expect(!provider.cutOff.isEmpty)
        #expect(provider.startedAfterStop.isEmpty)
        let rows = try await Self.deliveries(world)
        #expect(!rows.contains { $0.status == "failed" })
        #expect(rows.filter { $0.status == "queued" }.allSatisfy { $0.attempts == 0 && $0.leaseOwner == nil })
        try await Self.expectNoFalseHistory(world, ada)
    }

    // MARK: - Support

    struct Row: Sendable {
        var id: String
        var status: String
        var attempts: Int
        var reason: String?
        var leaseOwner: String?
        var nextAttemptAt: Date?
    }

    /// Every delivery of the alert burst: those linking made are sent before, and left out.
    static func deliveries(_ world: TestWorld) async throws -> [Row] {
        try await world.store.read { tx in
            try await tx.executor.query(
                "SELECT * FROM deliveries WHERE provider_id IS NULL OR provider_id NOT LIKE 'log-%'", []
            ).map { row in
                Row(
                    id: try row.string("id"), status: try row.string("status"), attempts: try row.int("attempts"),
                    reason: try row.optionalString("reason"), leaseOwner: try row.optionalString("lease_owner"),
                    nextAttemptAt: try row.optionalDate("next_attempt_at"))
            }
        }
    }

    /// Ada's timeline says nothing failed and nobody was unreachable, and its chain holds.
    static func expectNoFalseHistory(_ world: TestWorld, _ ada: Caller) async throws {
        let entries = try await world.timeline.timeline(ada)
        for entry in entries where entry.kind == "delivery" {
            #expect(!entry.summary.contains("failed"), "false history: \(entry.summary)")
            #expect(!entry.summary.contains("could not be reached"), "false history: \(entry.summary)")
            #expect(!entry.summary.contains("interrupted"), "an interruption is not history: \(entry.summary)")
        }
        #expect(!entries.contains { $0.summary.localizedCaseInsensitiveContains("could not be reached") })
        #expect(try await world.timeline.verifyTimeline(ada).valid)
    }
}

/// A provider on the server's default channel whose sends, from the `holdFrom`-th on, wait
/// until ``finish()`` or until their task is cancelled (then failing like a cut HTTP request).
/// It notes every send that reached it while the worker it watches was already stopping. The
/// signal is raised inside a send, so others of the same start (at most concurrency − 1, all
/// past the worker's last look before the provider) can reach it just after: the tests allow
/// those and no more (the count of all sends is bounded too).
final class SlowProvider: ChannelAdapter {
    let kind: ChannelKind = .log
    private struct State {
        var started: [DeliveryID] = []
        var startedAfterStop: [DeliveryID] = []
        var cutOff: [DeliveryID] = []
        var shutdown: WorkerShutdown?
        var stopAt = Int.max
    }
    private let state = Mutex(State())
    private let finished = Latch()
    private let holdFrom: Int
    private let starts: AsyncStream<Int>
    private let starting: AsyncStream<Int>.Continuation

    init(holdFrom: Int) {
        self.holdFrom = holdFrom
        (starts, starting) = AsyncStream.makeStream()
    }

    var registry: ChannelRegistry { ChannelRegistry([self]) }
    var started: [DeliveryID] { state.withLock { $0.started } }
    var startedAfterStop: [DeliveryID] { state.withLock { $0.startedAfterStop } }
    var cutOff: [DeliveryID] { state.withLock { $0.cutOff } }

    /// Watches `shutdown`, and stops it as the `n`-th send starts (the signal arrives there).
    func watch(_ shutdown: WorkerShutdown, stoppingAtSend n: Int = .max) {
        state.withLock {
            $0.shutdown = shutdown
            $0.stopAt = n
        }
    }

    func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        let n = state.withLock { state in
            if state.shutdown?.isStopping == true { state.startedAfterStop.append(message.deliveryID) }
            state.started.append(message.deliveryID)
            if state.started.count == state.stopAt { state.shutdown?.stop() }
            return state.started.count
        }
        starting.yield(n)
        if n >= holdFrom { await held() }
        if Task.isCancelled {
            state.withLock { $0.cutOff.append(message.deliveryID) }
            throw .transient("The test provider could not be reached.")
        }
        return .sent(providerID: "slow-\(message.deliveryID)")
    }

    /// Lets every held send, and every later one, finish.
    func finish() { finished.open() }

    private func held() async { await finished.wait() }

    /// Returns once the `n`-th send has started.
    func waitUntilStarted(_ n: Int) async throws {
        let starts = starts
        try await withFailureDeadline(seconds: 30, "send \(n) never started") {
            for await started in starts where started >= n { return }
        }
    }
}

/// A provider that already has every message whose earlier attempt is in doubt (as Twilio's
/// message list would show it) and sends the others.
final class RememberingProvider: ChannelAdapter, Sendable {
    let kind: ChannelKind = .log
    private let state = Mutex<(asked: Set<DeliveryID>, sent: Set<DeliveryID>)>(([], []))
    var asked: Set<DeliveryID> { state.withLock { $0.asked } }
    var sent: Set<DeliveryID> { state.withLock { $0.sent } }

    func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        if message.inDoubtSince != nil {
            state.withLock { _ = $0.asked.insert(message.deliveryID) }
            return .foundAtProvider(providerID: "earlier-\(message.deliveryID)")
        }
        state.withLock { _ = $0.sent.insert(message.deliveryID) }
        return .sent(providerID: "now-\(message.deliveryID)")
    }
}
