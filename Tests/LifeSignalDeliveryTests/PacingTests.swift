import Foundation
import LifeSignalDelivery
import LifeSignalModels
import Logging
import Synchronization
import Testing

/// The worker keeps to the provider's calls per second on the test clock: what finds no slot
/// goes back to the outbox, an alert takes the next slot before the daily calls, and other
/// channels are not held up.
@Suite struct PacingTests {
    /// A channel that answers at once and notes what it was given, and when.
    final class Placed: ChannelAdapter {
        let kind: ChannelKind
        let clock: ManualNow
        private let sends = Mutex<[(id: DeliveryID, kind: LifeSignalModels.Notification.Kind, at: Date)]>([])

        init(_ kind: ChannelKind, clock: ManualNow) {
            self.kind = kind
            self.clock = clock
        }

        func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
            sends.withLock { $0.append((message.deliveryID, message.kind, clock.now)) }
            return ChannelReceipt(status: .queued, providerID: message.deliveryID.description)
        }

        var placed: [(id: DeliveryID, kind: LifeSignalModels.Notification.Kind, at: Date)] { sends.withLock { $0 } }
    }

    static func message(_ n: Int, _ kind: LifeSignalModels.Notification.Kind, channel: ChannelKind = .voice) -> OutgoingMessage {
        .fixture(
            channel: channel, address: "+1555000\(String(format: "%04d", n))",
            deliveryID: DeliveryID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!), kind: kind,
            urgent: kind.category == .alerts)
    }

    func worker(_ store: InMemoryOutboxStore, _ clock: ManualNow, _ adapters: [any ChannelAdapter], callsPerSecond: Int) -> OutboxWorker {
        OutboxWorker(
            store: store, registry: ChannelRegistry(adapters), owner: "worker-1", now: { clock.now }, batchSize: 50,
            leaseSeconds: 120, concurrency: 8, pacing: DeliveryPacing(callsPerSecond: callsPerSecond))
    }

    @Test func callsKeepToTheRateAndAnAlertTakesTheNextSlotBeforeTheDailyCalls() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let voice = Placed(.voice, clock: clock)
        let texts = Placed(.log, clock: clock)
        let daily = (1...5).map { Self.message($0, .dailyCall) }
        for message in daily { await store.enqueue(message, dueAt: fixedNow) }
        // Other channels are not paced: these all go at once.
        let drills = (11...13).map { Self.message($0, .drill, channel: .log) }
        for message in drills { await store.enqueue(message, dueAt: fixedNow) }
        let worker = worker(store, clock, [voice, texts], callsPerSecond: 2)

        #expect(try await worker.runOnce() == 5)
        #expect(voice.placed.map(\.id) == daily.prefix(2).map(\.deliveryID))
        #expect(texts.placed.count == 3)
        // The other three found no slot: back to the outbox, unleased, still queued.
        #expect(await store.released == daily.suffix(3).map(\.deliveryID))
        for message in daily.suffix(3) {
            #expect(await store.row(message.deliveryID)?.leaseOwner == nil)
            #expect(await store.row(message.deliveryID)?.status == .queued)
        }
        // Still the same second: nothing more goes, however often the worker looks.
        #expect(try await worker.runOnce() == 0)
        #expect(voice.placed.count == 2)

        // An SOS's call is queued behind them; in the next second it goes first.
        let sos = Self.message(20, .manualAlert)
        await store.enqueue(sos, dueAt: clock.now)
        clock.set(fixedNow.addingTimeInterval(1.5))
        #expect(try await worker.runOnce() == 2)
        #expect(voice.placed.map(\.id).suffix(2) == [sos.deliveryID, daily[2].deliveryID])

        clock.set(fixedNow.addingTimeInterval(2))
        while try await worker.runOnce() > 0 {}
        clock.set(fixedNow.addingTimeInterval(3))
        while try await worker.runOnce() > 0 {}
        #expect(voice.placed.map(\.id) == daily.prefix(2).map(\.deliveryID) + [sos.deliveryID] + daily.suffix(3).map(\.deliveryID))
        // Never more than two in one second of the clock.
        let perSecond = Dictionary(grouping: voice.placed) { Int($0.at.timeIntervalSince(fixedNow).rounded(.down)) }
        #expect(perSecond.mapValues(\.count) == [0: 2, 1: 2, 2: 2])
        for message in daily + [sos] + drills {
            #expect(await store.row(message.deliveryID)?.status == .sent)
            #expect(await store.row(message.deliveryID)?.attempts == 1)
        }
    }

    @Test func withoutPacingEveryCallGoesAtOnce() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let voice = Placed(.voice, clock: clock)
        for n in 1...5 { await store.enqueue(Self.message(n, .dailyCall), dueAt: fixedNow) }
        let worker = OutboxWorker(
            store: store, registry: ChannelRegistry([voice]), owner: "worker-1", now: { clock.now }, batchSize: 50)
        #expect(try await worker.runOnce() == 5)
        #expect(await store.released.isEmpty)
    }

    @Test func anAlertHandedOverInTheSameSecondWaitsForASlotAndIsGivenBackNotLost() async throws {
        let clock = ManualNow(fixedNow)
        let store = InMemoryOutboxStore()
        let voice = Placed(.voice, clock: clock)
        await store.enqueue(Self.message(1, .dailyCall), dueAt: fixedNow)
        let worker = worker(store, clock, [voice], callsPerSecond: 1)
        #expect(try await worker.runOnce() == 1)
        let sos = Self.message(2, .incidentOpened)
        await store.offer(sos, dueAt: fixedNow, leasedTo: "worker-1", until: fixedNow.addingTimeInterval(120))
        // Handed over, but the second's slot is taken: back to the outbox, for the next claim.
        #expect(try await worker.runOnce() == 0)
        #expect(await store.released == [sos.deliveryID])
        clock.set(fixedNow.addingTimeInterval(1))
        #expect(try await worker.runOnce() == 1)
        #expect(voice.placed.map(\.id) == [Self.message(1, .dailyCall).deliveryID, sos.deliveryID])
    }
}
