import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore
import Logging
import Synchronization

/// Seeds a large population on a fresh SQLite file, makes a block of people miss their
/// deadline in the same minute, and measures the escalation engine and an outbox worker
/// in this process against a manual clock set to the due moment.
///
/// `--channel log` (the default) hands every delivery to the log channel. `--channel webhook`
/// gives each responder a webhook channel with its own signing secret, as `POST /v1/channels`
/// does, so their alerts go over real HTTP — the production `WebhookChannel`, one pinned
/// connection per call, signed — to a receiver this bench runs in a second process, which
/// checks every signature; the people's own notices still go to the log channel.
struct EscalationBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "escalation", abstract: "Escalation engine: a burst of due incidents among many users.")

    @Option(help: "Users to seed.") var users = 1_000_000
    @Option(help: "Users who miss their deadline in the same minute (each with one responder).") var due = 10_000
    @Option(help: "Idle passes to time once everything is done.") var idlePasses = 20
    @Option(help: "Steps of every due person's ladder, one responder each, 15 minutes apart (1: everyone at once).")
    var ladderSteps = 1
    @Option(
        help: """
            Responders of every due person (default: one a step). Those past the steps are on the \
            last one: `--responders 3` with one step tells three at once, the same people as \
            `--ladder-steps 3` tells one by one.
            """)
    var responders: Int?
    @Option(help: "Deliveries a worker claims per round.") var workerBatch = DeliveryService.batchSize
    @Option(help: "People the engine takes per transaction.") var engineBatch = EscalationEngine.defaultBatchSize
    @Option(help: "Database: a SQLite file (default: a fresh temporary one) or an empty postgres:// database.")
    var database: String?
    @Flag(help: "Let the engine finish before the worker starts, to time each alone (engine_done_s is then the engine's own time).")
    var sequential = false
    @Option(help: "Where responders' alerts go: log, or webhook (real HTTP to a local receiver, signed).")
    var channel: BenchChannel = .log
    @Option(help: "Port of the webhook receiver (--channel webhook).") var receiverPort = 18380
    @Flag(help: .hidden) var serveWebhookReceiver = false

    func run() async throws {
        if serveWebhookReceiver { return try await WebhookReceiver.serve(port: receiverPort, secret: Self.webhookSecret) }
        let responders = responders ?? ladderSteps
        precondition(responders >= ladderSteps, "--responders must be at least --ladder-steps (each step has a responder)")
        precondition(due * (responders + 1) <= users, "--due × (--responders + 1) must be at most --users")
        precondition((1...LadderRule.maxSteps).contains(ladderSteps), "--ladder-steps is 1 to \(LadderRule.maxSteps)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = database ?? dir.appendingPathComponent("escalation.sqlite").path

        // The due moment: a whole minute, an hour from now.
        let dueAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 + 3600)
        let seedStart = ContinuousClock.now
        let hook = channel == .webhook ? "http://127.0.0.1:\(receiverPort)/hook" : nil
        try await Self.seed(
            users: users, due: due, dueAt: dueAt, path: path, webhook: hook, ladderSteps: ladderSteps, responders: responders)
        print(
            String(
                format: "seeded %d users (%d due at %@, %d-step ladders, %d responders each) in %.1f s",
                users, due, ISODate.format(dueAt), ladderSteps, responders, Self.seconds(ContinuousClock.now - seedStart)))

        // Peak RSS from here on: seeding's own memory is not the engine's.
        Self.resetPeakRSS()

        let silent = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let store = try await Store.open(path, logger: silent)
        let clock = ManualClock(dueAt.addingTimeInterval(-1))
        var environment = ServiceEnvironment.live(logger: silent)
        environment.now = { clock.now }
        let core = ServiceCore(
            store: store, environment: environment, configuration: ServiceConfiguration(defaultChannel: .log),
            codeSender: SignInCodeSender { _, _ in })
        let engine = {
            var engine = EscalationEngine(core: core, instance: "bench-engine")
            engine.batchSize = engineBatch
            return engine
        }()
        // The alerts at open: everyone on the first step (all of them when there is one).
        let recorder = AttemptRecorder(expected: due * (ladderSteps == 1 ? responders : 1))
        // The server's worker, as `lifesignal serve` runs it, with timed channels.
        var adapters: [any ChannelAdapter] = [TimedChannel(inner: LogChannel(logger: silent), recorder: recorder)]
        var receiver: BenchServer?
        defer { receiver?.stop() }
        if channel == .webhook {
            let server = try BenchServer.start(
                ["bench", "escalation", "--serve-webhook-receiver", "--receiver-port", String(receiverPort)], port: receiverPort)
            receiver = server
            try await server.waitUntilReady()
            // As the server builds it (ChannelSettings), except that the receiver is on loopback.
            let webhook = WebhookChannel(
                configuration: .init(secret: "bench-server-secret", allowPrivateNetworks: true),
                httpClient: HTTPClient.shared, logger: silent)
            adapters.append(TimedChannel(inner: webhook, recorder: recorder))
        }
        let worker = DeliveryService.worker(
            for: core, registry: ChannelRegistry(adapters), owner: "bench-worker", batchSize: workerBatch)

        // A pass before the due moment: nothing to do (warms caches like a running server would be).
        _ = try await engine.runPass()

        clock.set(dueAt)
        let start = ContinuousClock.now
        recorder.start(at: start)
        async let enginePasses: (incidentsOpened: Int, lastCalls: Int, seconds: Double) = {
            var total = (incidentsOpened: 0, lastCalls: 0, seconds: 0.0)
            while true {
                let pass = try await engine.runPass()
                if pass.total == 0 { break }
                total.incidentsOpened += pass.incidentsOpened
                total.lastCalls += pass.lastCalls
                total.seconds = Self.seconds(ContinuousClock.now - start)
            }
            return total
        }()
        let deadline = start + .seconds(600)
        if sequential { _ = try await enginePasses }
        while !recorder.isDone, ContinuousClock.now < deadline {
            if try await worker.runOnce() == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        let engineTotal = try await enginePasses
        // Drain the rest (the people's own last-call messages).
        while try await worker.runOnce() > 0 {}
        let stats = recorder.summary()

        var idle: [Double] = []
        for _ in 0..<idlePasses {
            let t = ContinuousClock.now
            let pass = try await engine.runPass()
            precondition(pass.total == 0)
            idle.append(Self.seconds(ContinuousClock.now - t) * 1000)
        }
        idle.sort()
        let idleMedian = idle.isEmpty ? 0 : idle[idle.count / 2]
        let rss = Self.peakRSSMegabytes()
        let openCount = try await store.read { try await $0.openIncidentCount() }
        await store.close()
        var received = ""
        if let receiver {
            let tally = try await WebhookReceiver.tally(port: receiver.port)
            received = String(format: " webhook_received=%d bad_signatures=%d", tally.verified, tally.rejected)
            print("webhook receiver: \(tally.verified) calls with a valid signature, \(tally.rejected) without")
        }

        print(
            String(
                format: "engine: incidents_opened=%d last_calls=%d open_in_db=%d engine_done_s=%.3f",
                engineTotal.incidentsOpened, engineTotal.lastCalls, openCount, engineTotal.seconds))
        print(String(format: "deliveries: incident_attempts=%d other_attempts=%d", stats.incidentAttempts, stats.otherAttempts))
        print(String(format: "latency due→first attempt: p50_ms=%.1f p99_ms=%.1f max_ms=%.1f", stats.p50, stats.p99, stats.max))
        print(String(format: "all %d incidents open and attempted after %.3f s", stats.incidentAttempts, stats.allDone))
        print(
            String(format: "idle pass at %d users: median_ms=%.2f max_ms=%.2f (%d passes)", users, idleMedian, idle.last ?? 0, idle.count))
        print(String(format: "peak RSS after seeding: %.0f MB", rss))
        print(
            "escalation: channel=\(channel.rawValue) ladder_steps=\(ladderSteps) responders=\(responders) "
                + String(
                    format: "incidents=%d all_done_s=%.3f p99_latency_ms=%.1f idle_pass_ms=%.2f rss_mb=%.0f",
                    stats.incidentAttempts, stats.allDone, stats.p99, idleMedian, rss) + received)
    }

    /// The signing secret every bench webhook channel gets (each has its own row, as registered).
    static let webhookSecret = "whsec_bench_0123456789abcdefghijklmnopqrstuv"

    /// Direct store writes in large transactions. The first `due` people last checked in one
    /// rhythm (24 h) before `dueAt`, with no reminder and no grace; person `k × due + i` is the
    /// responder of person `i` on step `k` of her ladder (1-based; one step: everyone at once,
    /// no ladder saved); `responders` past the steps are on the last one. Everyone else checked in an hour before `dueAt`. With `webhook`, each
    /// responder has a webhook channel to that URL, first in their order.
    static func seed(
        users: Int, due: Int, dueAt: Date, path: String, webhook: String? = nil, ladderSteps: Int = 1, responders: Int? = nil
    ) async throws {
        let perPerson = responders ?? ladderSteps
        let store = try await Store.open(path, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        let created = dueAt.addingTimeInterval(-2 * 86400)
        var ids: [UserID] = []
        ids.reserveCapacity((perPerson + 1) * due)
        let chunk = 20_000
        for first in stride(from: 0, to: users, by: chunk) {
            let range = first..<min(first + chunk, users)
            let made: [UserID] = try await store.write { tx in
                var made: [UserID] = []
                for i in range {
                    let isDue = i < due
                    let user = User(
                        id: UserID(UUID()), phone: String(format: "+1555%07d", i), firstName: "Bench", lastName: "\(i)",
                        schedule: .interval(seconds: 86400), reminders: isDue ? .none : .default, graceMinutes: isDue ? 0 : 10,
                        lastCheckInAt: isDue ? dueAt.addingTimeInterval(-86400) : dueAt.addingTimeInterval(-3600),
                        createdAt: created, contactCode: String(format: "bench%011d", i), isOnboarded: true)
                    try await tx.insertUser(
                        user, deadline: Deadline.of(user),
                        nextActionAt: EscalationPlan.nextActionAt(for: user, stepsDone: 0, now: created))
                    if i < (perPerson + 1) * due { made.append(user.id) }
                }
                return made
            }
            ids += made
        }
        let pairs = ids
        try await store.write { tx in
            for i in 0..<due {
                let responders = (1...perPerson).map { pairs[$0 * due + i] }
                for responder in responders {
                    try await tx.insertLink(LinkRecord(userID: pairs[i], contactID: responder, roles: .responder, addedAt: created))
                    if let webhook {
                        let channel = Channel(
                            id: ChannelID(UUID()), userID: responder, kind: .webhook, address: webhook, priority: 0,
                            createdAt: created, verifiedAt: created)
                        try await tx.insertChannel(channel)
                        try await tx.setChannelSigningSecret(channel.id, webhookSecret)
                    }
                }
                if ladderSteps > 1 {
                    let ladder = Ladder(
                        steps: (0..<ladderSteps).map { k in
                            Ladder.Step(
                                responders: k == ladderSteps - 1 ? Array(responders[k...]) : [responders[k]], waitMinutes: k == 0 ? 0 : 15)
                        }, version: 1)
                    _ = try await tx.saveLadder(pairs[i], ladder, expected: 0, at: created)
                }
            }
        }
        await store.close()
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func resetPeakRSS() {
        // Linux: writing 5 to clear_refs resets VmHWM to the current RSS.
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func peakRSSMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb / 1024
    }
}

enum BenchChannel: String, ExpressibleByArgument, Sendable {
    case log, webhook
}

/// A channel, timing each attempt once the channel has taken the message (for a webhook: the
/// receiver answered 2xx).
struct TimedChannel<Inner: ChannelAdapter>: ChannelAdapter {
    let inner: Inner
    let recorder: AttemptRecorder
    var kind: ChannelKind { inner.kind }

    func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        let receipt = try await inner.send(message)
        recorder.record(message)
        return receipt
    }
}

/// The far end of the bench's webhooks, in its own process: checks each call's signature as a
/// receiver must (HMAC over the raw body, timestamp within 5 minutes), answers 200 (401 when
/// the signature is wrong), and reports its tally on `GET /tally`.
enum WebhookReceiver {
    static func serve(port: Int, secret: String) async throws {
        let tally = Tally()
        let router = Router(context: BasicRequestContext.self)
        router.get("/health") { _, _ in HTTPResponse.Status.ok }
        router.get("/tally") { _, _ in
            "\(tally.verified.load(ordering: .relaxed)) \(tally.rejected.load(ordering: .relaxed))"
        }
        router.post("/hook") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            let name = WebhookSignature.headerName.lowercased()
            let header = request.headers.first(where: { $0.name.canonicalName == name })?.value ?? ""
            guard WebhookSignature.verify(header: header, body: Array(body.readableBytesView), secret: secret, now: Date()) else {
                tally.rejected.add(1, ordering: .relaxed)
                return .unauthorized
            }
            tally.verified.add(1, ordering: .relaxed)
            return .ok
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    final class Tally: Sendable {
        let verified = Atomic<Int>(0)
        let rejected = Atomic<Int>(0)
    }

    static func tally(port: Int) async throws -> (verified: Int, rejected: Int) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/tally"), timeout: .seconds(5))
        let text = String(buffer: try await response.body.collect(upTo: 1024))
        let parts = text.split(separator: " ").compactMap { Int($0) }
        guard parts.count == 2 else { throw BenchError("the webhook receiver answered \(text)") }
        return (parts[0], parts[1])
    }
}

/// When each incident notification was first attempted, relative to the due moment.
final class AttemptRecorder: Sendable {
    private struct State {
        var start: ContinuousClock.Instant?
        var firstAttempt: [NotificationID: Double] = [:]
        var other = 0
        var lastAt = 0.0
    }

    private let state = Mutex(State())
    let expected: Int

    init(expected: Int) { self.expected = expected }

    func start(at instant: ContinuousClock.Instant) { state.withLock { $0.start = instant } }

    func record(_ message: OutgoingMessage) {
        let now = ContinuousClock.now
        state.withLock { s in
            guard let start = s.start else { return }
            guard message.kind == .incidentOpened else { s.other += 1; return }
            if s.firstAttempt[message.notificationID] == nil {
                let t = EscalationBench.seconds(now - start)
                s.firstAttempt[message.notificationID] = t
                s.lastAt = max(s.lastAt, t)
            }
        }
    }

    var isDone: Bool { state.withLock { $0.firstAttempt.count >= expected } }

    func summary() -> (incidentAttempts: Int, otherAttempts: Int, p50: Double, p99: Double, max: Double, allDone: Double) {
        state.withLock { s in
            let sorted = s.firstAttempt.values.sorted()
            func pct(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] * 1000
            }
            return (sorted.count, s.other, pct(0.5), pct(0.99), (sorted.last ?? 0) * 1000, s.lastAt)
        }
    }
}
