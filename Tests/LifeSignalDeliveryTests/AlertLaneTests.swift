import LifeSignalTestSupport
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Logging
import Synchronization
import Testing

/// One person's slow endpoints and a flood of drills never hold up an alert about someone
/// else: alerts go first, have send slots of their own, and no host or recipient takes more
/// than its share. Shown with real HTTP: a tarpit webhook receiver that accepts requests and
/// answers none until the test lets it.
@Suite("Alert lane", .timeLimit(.minutes(1)))
struct AlertLaneTests {
    /// Holds every request open until `release()`; reports each arrival on `arrivals`.
    final class Tarpit: Sendable {
        let arrivals: AsyncStream<Void>
        private let arrived: AsyncStream<Void>.Continuation
        private let gate = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        init() { (arrivals, arrived) = AsyncStream<Void>.makeStream() }

        func hold() async {
            arrived.yield()
            await withCheckedContinuation { continuation in
                let open = gate.withLock { gate -> Bool in
                    if !gate.open { gate.waiters.append(continuation) }
                    return gate.open
                }
                if open { continuation.resume() }
            }
        }

        func release() {
            let waiters = gate.withLock { gate -> [CheckedContinuation<Void, Never>] in
                gate.open = true
                defer { gate.waiters.removeAll() }
                return gate.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        var router: Router<BasicRequestContext> {
            let router = Router()
            router.post("hook") { request, _ -> Response in
                _ = try await request.body.collect(upTo: 1 << 20)
                await self.hold()
                return Response(status: .ok)
            }
            return router
        }
    }

    /// Records the delivery id of each request and answers at once.
    static func receiver(_ received: Recorder<String>) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let payload = try WebhookPayload.decoder.decode(WebhookPayload.self, from: Data(buffer: body))
            await received.append(payload.deliveryID.description)
            return Response(status: .ok)
        }
        return router
    }

    static func id(_ n: Int) -> DeliveryID { DeliveryID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))!) }
    static func user(_ n: Int) -> UserID { UserID(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", 1000 + n))!) }

    static func drill(_ n: Int, to recipient: Int, port: Int) -> OutgoingMessage {
        OutgoingMessage(
            deliveryID: id(n), notificationID: NotificationID(UUID()), recipientID: user(recipient), channel: .webhook,
            address: "http://127.0.0.1:\(port)/hook", kind: .drill, title: "Drill", body: "A test.", urgent: false)
    }

    static func sos(_ n: Int, to recipient: Int, port: Int) -> OutgoingMessage {
        OutgoingMessage(
            deliveryID: id(n), notificationID: NotificationID(UUID()), recipientID: user(recipient), channel: .webhook,
            address: "http://127.0.0.1:\(port)/hook", kind: .manualAlert, title: "Bea needs help",
            body: "Bea raised an emergency alert.", urgent: true)
    }

    func worker(_ store: InMemoryOutboxStore, concurrency: Int = 4) -> OutboxWorker {
        OutboxWorker(
            store: store,
            registry: ChannelRegistry([
                WebhookChannel(
                    // Longer than the suite's time limit: a tarpit request never times out here.
                    configuration: .init(secret: "s", timeout: .seconds(600), allowPrivateNetworks: true),
                    httpClient: .shared, now: { fixedNow })
            ]),
            owner: "worker-1", now: { fixedNow }, random: { 0.5 }, logger: Logger(label: "lane-test"),
            batchSize: 50, leaseSeconds: 1200, concurrency: concurrency, maxAttemptSeconds: 600)
    }

    @Test("an SOS stored while one person's tarpit webhooks hold the round reaches its receiver at once")
    func sosOvertakesTarpitDrills() async throws {
        let tarpit = Tarpit()
        let received = Recorder<String>()
        try await withLocalServer(tarpit.router) { tarpitPort in
            // However the test ends (its time limit too), the tarpit lets its requests go before
            // its server stops: a server stopped under open requests brings the process down.
            defer { tarpit.release() }
            try await withLocalServer(Self.receiver(received)) { goodPort in
                let store = InMemoryOutboxStore()
                // Forty drills to eight sock-puppet recipients, all on one tarpit host.
                for n in 1...40 { await store.enqueue(Self.drill(n, to: n % 8, port: tarpitPort), dueAt: fixedNow) }
                let round = Task { try await worker(store).runOnce() }

                // The tarpit holds as many requests as the lanes let through: two (its host's share).
                var arrivals = tarpit.arrivals.makeAsyncIterator()
                for _ in 0..<2 { await arrivals.next() }

                // Bea's SOS is stored and handed over while every tarpit request is still open.
                let sos = Self.sos(100, to: 99, port: goodPort)
                await store.offer(sos, dueAt: fixedNow, leasedTo: "worker-1", until: fixedNow.addingTimeInterval(1200))
                var recorded = store.recorded.makeAsyncIterator()
                // Until the SOS is recorded (or the stream ends, when the checks below fail).
                while let next = await recorded.next(), next != sos.deliveryID {}

                // It was sent and recorded with no tarpit request answered.
                #expect(await received.values == [sos.deliveryID.description])
                #expect(await store.row(sos.deliveryID)?.status == .delivered)
                let drillsAttempted = await (1...40).asyncFilter { await store.row(Self.id($0))?.attempts != 0 }
                #expect(drillsAttempted.isEmpty)

                tarpit.release()
                let attempted = try await round.value
                #expect(attempted == 41)
                for n in 1...40 { #expect(await store.row(Self.id(n))?.status == .delivered) }
            }
        }
    }

    @Test("alerts are sent before reminders and everything else claimed with them")
    func alertsFirst() async throws {
        let received = Recorder<String>()
        try await withLocalServer(Self.receiver(received)) { port in
            let store = InMemoryOutboxStore()
            for n in 1...5 { await store.enqueue(Self.drill(n, to: n, port: port), dueAt: fixedNow) }
            var reminder = Self.drill(6, to: 6, port: port)
            reminder.kind = .reminder
            await store.enqueue(reminder, dueAt: fixedNow)
            await store.enqueue(Self.sos(7, to: 7, port: port), dueAt: fixedNow)
            let attempted = try await worker(store, concurrency: 1).runOnce()
            #expect(attempted == 7)
            let order = await received.values
            #expect(order.prefix(2) == [Self.id(7).description, Self.id(6).description])
            #expect(Set(order.dropFirst(2)) == Set((1...5).map { Self.id($0).description }))
        }
    }

    @Test("lanes: a quarter of the slots for alerts (none with one slot), an eighth per host and per recipient")
    func laneDefaults() {
        #expect(OutboxWorker.Lanes.defaults(concurrency: 64) == .init(alertReserve: 16, perDestination: 8, perRecipient: 8))
        #expect(OutboxWorker.Lanes.defaults(concurrency: 4) == .init(alertReserve: 1, perDestination: 2, perRecipient: 2))
        #expect(OutboxWorker.Lanes.defaults(concurrency: 1) == .init(alertReserve: 0, perDestination: 2, perRecipient: 2))
    }
}

extension Sequence where Element: Sendable {
    func asyncFilter(_ isIncluded: (Element) async -> Bool) async -> [Element] {
        var kept: [Element] = []
        for element in self where await isIncluded(element) { kept.append(element) }
        return kept
    }
}
