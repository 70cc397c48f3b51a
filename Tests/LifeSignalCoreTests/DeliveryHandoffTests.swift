import Foundation
import LifeSignalTestSupport
@testable import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalRules
@_spi(Testing) import LifeSignalStore
import Logging
import Synchronization
import Testing

/// Deliveries queued in a process with a worker are stored leased to it and handed over when
/// their transaction commits; the lease is what makes a crash safe.
@Suite("Delivery handoff")
struct DeliveryHandoffTests {
    /// The server's default channel here (log), recording what it is given.
    final class RecordingChannel: ChannelAdapter {
        let kind: ChannelKind = .log
        let sent = Mutex<[OutgoingMessage]>([])
        /// Each message as it is sent.
        let messages: AsyncStream<OutgoingMessage>
        private let sending: AsyncStream<OutgoingMessage>.Continuation

        init() { (messages, sending) = AsyncStream.makeStream() }

        func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
            sent.withLock { $0.append(message) }
            sending.yield(message)
            return .delivered()
        }

        var alerts: [OutgoingMessage] { sent.withLock { $0 }.filter { $0.kind == .manualAlert } }
        var registry: ChannelRegistry { ChannelRegistry([self]) }
    }

    /// Ada, and Bob who is her responder (no channels: the server's default).
    func scenario() async throws -> (TestWorld, Caller, Caller) {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900200")
        let bob = try await world.signUp("Bob", phone: "+447700900201")
        try await world.link(responder: bob, dependent: ada)
        return (world, ada, bob)
    }

    /// `scenario()` with a worker of this process (not running) that has sent what linking
    /// them sent, and Ada's alert stored and handed over to it.
    func alertHandedOver(to owner: String) async throws -> (TestWorld, Caller, OutboxWorker, RecordingChannel) {
        let (world, ada, bob) = try await scenario()
        let channel = RecordingChannel()
        let worker = DeliveryService.worker(for: world.core, registry: channel.registry, owner: owner)
        while try await worker.runOnce() > 0 {}
        _ = try await world.incidents.raiseAlert(ada)
        return (world, bob, worker, channel)
    }

    @Test func anAlertIsAttemptedAsSoonAsItIsStoredNotAtTheNextPoll() async throws {
        let (world, ada, bob) = try await scenario()
        let channel = RecordingChannel()
        let worker = DeliveryService.worker(for: world.core, registry: channel.registry, owner: "here")
        let rounds = world.core.outboxPulse.rounds()
        // A poll an hour away: only the handoff can bring the alert to the channel in time.
        let running = Task { try await worker.run(pollInterval: .seconds(3600)) }
        // The worker is idle, waiting: it finished a round that found nothing to do.
        try await withFailureDeadline(seconds: 30, "the worker never went idle") { await Self.idleRound(rounds) }

        let incident = try await world.incidents.raiseAlert(ada)
        let sent = channel.messages
        try await withFailureDeadline(seconds: 10, "the alert never reached the channel") {
            for await message in sent where message.kind == .manualAlert { return }
        }
        #expect(channel.alerts.map(\.recipientID) == [bob.user.id])

        // Recorded like any claimed attempt: the outcome, the lease released, the timeline entry.
        // The notice to Ada ("Bob has been alerted") goes out in the same round and may be
        // recorded a moment after the alert: once the worker is idle again, the round that
        // took them has recorded everything, and every lease is released.
        try await withFailureDeadline(seconds: 30, "the worker never finished the alert's round") { await Self.idleRound(rounds) }
        let report = try await world.incidents.incidentReport(bob, id: incident.id)
        #expect(report.recipients.flatMap(\.deliveries).map(\.status) == [.delivered])
        #expect(try await Self.leasedDeliveries(world) == 0)
        #expect(try await world.timeline.timeline(ada).contains { $0.kind == "delivery" && $0.summary == "Bob Tester: log delivered" })
        #expect(try await world.timeline.verifyTimeline(ada).valid)
        running.cancel()
        try await running.value
    }

    /// The process that stored an alert died before sending it: nobody else may send it while
    /// the lease holds, anybody may once it ends, and the dead worker (had it only stalled)
    /// would not send it a second time.
    @Test func aHandedOverDeliveryIsLeasedUntilItsLeaseEnds() async throws {
        let (world, bob, stalled, here) = try await alertHandedOver(to: "stalled")
        let owners = try await world.store.read { tx in
            try await tx.executor.query("SELECT lease_owner FROM deliveries WHERE next_attempt_at IS NOT NULL", [])
        }
        // Bob's alert and Ada's "Bob has been alerted".
        #expect(try owners.map { try $0.optionalString("lease_owner") } == ["stalled", "stalled"])

        // Another process on the same database, without this one's memory.
        let other = ServiceCore(
            store: world.store, environment: world.core.environment, codeSender: world.core.codeSender)
        let elsewhere = RecordingChannel()
        let otherWorker = DeliveryService.worker(for: other, registry: elsewhere.registry, owner: "other")
        #expect(try await otherWorker.runOnce() == 0)

        world.clock.advance(by: DeliveryService.leaseSeconds + 1)
        #expect(try await otherWorker.runOnce() == 2)
        #expect(elsewhere.alerts.map(\.recipientID) == [bob.user.id])
        // The stalled worker finds the alert in its memory, too late to start inside its lease.
        #expect(try await stalled.runOnce() == 0)
        #expect(here.alerts.isEmpty)
    }

    @Test func aServiceWithoutAWorkerQueuesForThePoll() async throws {
        let (world, ada, _) = try await scenario()
        _ = try await world.incidents.raiseAlert(ada)
        #expect(try await Self.leasedDeliveries(world) == 0)
        #expect(world.core.handoff.take(10, leasedPast: world.clock.now).isEmpty)
    }

    @Test func pastItsCapacityNothingMoreIsLeased() {
        let handoff = DeliveryHandoff(capacity: 2)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(handoff.lease(now: now) == nil, "not armed: nothing is leased")
        handoff.arm(owner: "w", leaseSeconds: 120)
        #expect(handoff.lease(now: now)?.until == now.addingTimeInterval(120))
        handoff.offer([Self.item(1), Self.item(2)])
        #expect(handoff.lease(now: now) == nil)
        #expect(handoff.take(1, leasedPast: now).map(\.target.delivery.id) == [Self.item(1).target.delivery.id])
        #expect(handoff.lease(now: now)?.owner == "w")
        #expect(handoff.take(5, leasedPast: now).map(\.target.delivery.id) == [Self.item(2).target.delivery.id])
        // Disarmed (its worker stopped): what was left comes back, nothing more is leased.
        handoff.offer([Self.item(3)])
        #expect(handoff.disarm()?.left.map(\.target.delivery.id) == [Self.item(3).target.delivery.id])
        #expect(handoff.lease(now: now) == nil)
        #expect(handoff.take(5, leasedPast: now).isEmpty)
    }

    /// A copy whose lease can no longer cover an attempt is never taken: by then the store's
    /// row may have been claimed, attempted and changed by someone else.
    @Test func aDeliveryWhoseLeaseIsEndingIsNotTakenFromMemory() {
        let handoff = DeliveryHandoff()
        let item = Self.item(1)
        handoff.offer([item])
        #expect(handoff.take(5, leasedPast: item.leaseUntil).isEmpty)
        #expect(handoff.take(5, leasedPast: item.leaseUntil.addingTimeInterval(-200)).isEmpty, "dropped, not kept")
    }

    @Test func aRolledBackTransactionHandsNothingOver() async throws {
        let (world, _, bob) = try await scenario()
        _ = DeliveryService.worker(for: world.core, registry: RecordingChannel().registry, owner: "here")
        _ = world.core.handoff.take(100, leasedPast: world.clock.now)  // what linking them sent
        let draft = NotificationDraft(
            recipient: bob.user.id, kind: .drill, title: "Test", body: "A test.", stepKey: .drill(DrillID(UUID()), responder: bob.user.id))
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await world.core.write { tx, events in
                try await world.core.notify(draft, tx: tx, events: events)
                throw Refused()
            }
        }
        #expect(world.core.handoff.take(100, leasedPast: world.clock.now).isEmpty)
        // The same, committed, is handed over.
        try await world.core.write { tx, events in try await world.core.notify(draft, tx: tx, events: events) }
        #expect(world.core.handoff.take(100, leasedPast: world.clock.now).map(\.target.delivery.recipientID) == [bob.user.id])
    }

    /// A worker that stops gives what was handed to it and not taken back to the poll, so
    /// another process sends it now rather than when the lease ends.
    @Test func aStoppedWorkerGivesItsDeliveriesBackToThePoll() async throws {
        let (world, bob, worker, here) = try await alertHandedOver(to: "here")
        let stopping = Task {
            withUnsafeCurrentTask { $0?.cancel() }  // stopped before it takes anything
            try await worker.run(pollInterval: .seconds(3600))
        }
        try await stopping.value
        #expect(here.alerts.isEmpty)
        #expect(try await Self.leasedDeliveries(world) == 0)
        #expect(world.core.handoff.lease(now: world.clock.now) == nil)

        let other = ServiceCore(
            store: world.store, environment: world.core.environment, codeSender: world.core.codeSender)
        let elsewhere = RecordingChannel()
        #expect(try await DeliveryService.worker(for: other, registry: elsewhere.registry, owner: "other").runOnce() == 2)
        #expect(elsewhere.alerts.map(\.recipientID) == [bob.user.id])
    }

    /// A transaction that leased its deliveries to the worker before it stopped and committed
    /// after: nobody will take them from memory, so their leases are given back at once.
    @Test func deliveriesQueuedAsTheWorkerStopsAreGivenBackAtOnce() async throws {
        let (world, _, bob) = try await scenario()
        _ = DeliveryService.worker(for: world.core, registry: RecordingChannel().registry, owner: "here")
        _ = world.core.handoff.take(100, leasedPast: world.clock.now)  // what linking them sent
        let draft = NotificationDraft(
            recipient: bob.user.id, kind: .drill, title: "Test", body: "A test.", stepKey: .drill(DrillID(UUID()), responder: bob.user.id))
        try await world.core.write { tx, events in
            try await world.core.notify(draft, tx: tx, events: events)
            _ = world.core.handoff.disarm()  // the worker stops before this commits
        }
        #expect(world.core.handoff.take(100, leasedPast: world.clock.now).isEmpty)
        #expect(try await Self.leasedDeliveries(world) == 0)
        let handoff = DeliveryHandoff()
        handoff.arm(owner: "w", leaseSeconds: 120)
        _ = handoff.disarm()
        #expect(handoff.offer([Self.item(1)]).map(\.target.delivery.id) == [Self.item(1).target.delivery.id])
    }

    @Test func waitingReturnsOnAnOfferAnEarlierOfferOrCancellation() async throws {
        let handoff = DeliveryHandoff()
        // An offer made while nobody waited: the next wait returns at once, the one after waits.
        handoff.offer([Self.item(1)])
        await handoff.waitForOffer()

        let woke = Mutex(false)
        let waiting = Task {
            await handoff.waitForOffer()
            woke.withLock { $0 = true }
        }
        try await withFailureDeadline(seconds: 10, "the waiter never parked") { await handoff.waitUntilWaitedOn() }
        #expect(!woke.withLock { $0 }, "parked without an offer: not woken")
        handoff.offer([Self.item(2)])
        await waiting.value
        #expect(woke.withLock { $0 })

        // Cancelled once parked (not before it could park).
        let cancelled = Task { await handoff.waitForOffer() }
        try await withFailureDeadline(seconds: 10, "the waiter never parked") { await handoff.waitUntilWaitedOn() }
        cancelled.cancel()
        await cancelled.value  // returns: a cancelled worker is never left hanging
    }

    /// Returns at the next round of the worker that found nothing to do (it goes idle).
    static func idleRound(_ rounds: AsyncStream<Int>) async {
        for await attempted in rounds where attempted == 0 { return }
    }

    /// Deliveries in the store that are leased to some worker.
    static func leasedDeliveries(_ world: TestWorld) async throws -> Int {
        try await world.store.read { tx in
            try await tx.executor.queryFirst("SELECT COUNT(*) AS n FROM deliveries WHERE lease_owner IS NOT NULL")?.int("n") ?? -1
        }
    }

    static func item(_ n: Int) -> DeliveryHandoff.Item {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let id = DeliveryID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!)
        let user = UserID(UUID(uuidString: "00000000-0000-0000-0001-000000000000")!)
        return DeliveryHandoff.Item(
            target: DeliveryToRecord(
                delivery: Delivery(
                    id: id, notificationID: NotificationID(UUID()), recipientID: user, channel: .log, address: "+1",
                    status: .queued, createdAt: at, updatedAt: at),
                fallbackRank: 0, notification: nil, recipient: nil),
            leaseUntil: at.addingTimeInterval(120))
    }
}
