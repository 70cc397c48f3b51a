import ArgumentParser
import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore
import Logging
import Synchronization

/// Many daily calls due at the same minute, placed at the provider's rate: the escalation
/// engine queues them and the server's worker (`DeliveryService.worker`, paced at
/// `--calls-per-second`) hands them to a provider that answers at once (a voice adapter in this
/// process, standing in for Twilio). Prints when each call went out against its slot: call `k`
/// (in the order placed) belongs in second `k / rate` after the minute.
///
/// By default the clock skips the idle wait for the next second (the work is timed as it
/// happens, the empty part of each second is not waited out), so 10,000 calls at 10 a second
/// take seconds, not 17 minutes; `--real-time` waits them out on the wall clock.
struct DailyCallsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily-calls", abstract: "Daily calls: many due at the same minute, paced at the provider's rate.")

    @Option(help: "People whose daily call is due at the same minute.") var people = 10_000
    @Option(help: "The provider's calls per second (LIFESIGNAL_TWILIO_CALLS_PER_SECOND).") var callsPerSecond = 10
    @Option(help: "Database: a SQLite file (default: a fresh temporary one) or an empty postgres:// database.")
    var database: String?
    @Flag(help: "Wait out every second on the wall clock instead of skipping the idle part.") var realTime = false

    func run() async throws {
        precondition(people > 0 && callsPerSecond > 0, "--people and --calls-per-second must be positive")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = database ?? dir.appendingPathComponent("daily-calls.sqlite").path

        // The due moment: a whole minute, two hours from now, on the UTC wall clock ("09:00").
        let dueAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 + 7200)
        let seedStart = ContinuousClock.now
        try await Self.seed(people: people, dueAt: dueAt, path: path)
        print(
            String(
                format: "seeded %d people on a daily call at %@ in %.1f s", people, ISODate.format(dueAt),
                EscalationBench.seconds(ContinuousClock.now - seedStart)))

        let silent = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let store = try await Store.open(path, logger: silent)
        let clock = BenchClock(origin: dueAt, skipsIdle: !realTime)
        var environment = ServiceEnvironment.live(logger: silent)
        environment.now = { clock.now }
        var configuration = ServiceConfiguration(defaultChannel: .log)
        configuration.callsPerSecond = callsPerSecond
        let core = ServiceCore(
            store: store, environment: environment, configuration: configuration, codeSender: SignInCodeSender { _, _ in })
        let engine = EscalationEngine(core: core, instance: "bench-engine")
        let provider = PlacedCalls(clock: clock)
        // The server's worker, as `lifesignal serve` runs it: paced, handed what the engine queues.
        let worker = DeliveryService.worker(
            for: core, registry: ChannelRegistry([provider, LogChannel(logger: silent)]), owner: "bench-worker")

        clock.start()
        let start = ContinuousClock.now
        let engineDone = Mutex(false)
        async let queued: (calls: Int, seconds: Double) = {
            var calls = 0
            while true {
                let pass = try await engine.runPass()
                if pass.total == 0 { break }
                calls += pass.calls
            }
            engineDone.withLock { $0 = true }
            return (calls, EscalationBench.seconds(ContinuousClock.now - start))
        }()
        // Twice the spread, and two minutes, of the bench's clock.
        let limit = dueAt.addingTimeInterval(2 * CallPacing.spread(dueAtSameMinute: people, callsPerSecond: callsPerSecond) + 120)
        while provider.count < people, clock.now < limit {
            if try await worker.runOnce() == 0 {
                if engineDone.withLock({ $0 }) {
                    // Nothing more this second: on to the next (waited out, or skipped).
                    await clock.waitForNextSecond()
                } else {
                    // The engine is still queueing: the clock must not run ahead of it.
                    try await Task.sleep(for: .milliseconds(5))
                }
            }
        }
        let engineTotal = try await queued
        let wall = EscalationBench.seconds(ContinuousClock.now - start)
        await store.close()

        let offsets = provider.offsets(from: dueAt)
        let report = SlotReport(offsets: offsets, callsPerSecond: callsPerSecond)
        print(
            String(
                format: "engine: calls_queued=%d engine_done_s=%.3f (bench clock)", engineTotal.calls, engineTotal.seconds))
        print(
            String(
                format: "placed %d of %d calls; first at +%.3f s, last at +%.3f s after the minute; expected spread %.0f s",
                offsets.count, people, report.first, report.last,
                CallPacing.spread(dueAtSameMinute: people, callsPerSecond: callsPerSecond)))
        print(
            String(
                format: "lateness into the slot: p50_ms=%.1f p99_ms=%.1f max_ms=%.1f; most in one second: %d",
                report.p50 * 1000, report.p99 * 1000, report.max * 1000, report.busiestSecond))
        print(
            "beyond the 2-minute stall limit: \(report.beyondStallLimit) calls (the responders of each would be told it was not placed)"
        )
        print(
            "daily-calls: people=\(people) calls_per_second=\(callsPerSecond) clock=\(realTime ? "real" : "skips-idle") "
                + String(
                    format: "placed=%d spread_first_s=%.3f spread_last_s=%.3f p50_lateness_ms=%.1f p99_lateness_ms=%.1f ",
                    offsets.count, report.first, report.last, report.p50 * 1000, report.p99 * 1000)
                + "all_within_slot=\(report.late == 0 && offsets.count == people ? "yes" : "no") late=\(report.late) "
                + "max_per_second=\(report.busiestSecond) beyond_stall_limit=\(report.beyondStallLimit) "
                + String(format: "wall_s=%.1f", wall))
    }

    /// `people` people on a daily call at `dueAt`'s time in UTC, whose last check-in (yesterday
    /// after its call) leaves that call the next one. Direct store writes in large transactions.
    static func seed(people: Int, dueAt: Date, path: String) async throws {
        let store = try await Store.open(path, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = .gmt
        let time = utc.dateComponents([.hour, .minute], from: dueAt)
        let call = DailyCall(hour: time.hour ?? 9, minute: time.minute ?? 0, timeZone: "UTC")
        let created = dueAt.addingTimeInterval(-2 * 86400)
        let checkedIn = dueAt.addingTimeInterval(-23 * 3600)
        let probe = User(
            id: UserID(UUID()), phone: "+15550000000", schedule: .dailyCall(call), lastCheckInAt: checkedIn, createdAt: created,
            contactCode: "probe")
        guard Deadline.firstCall(before: Deadline.of(probe), call) == dueAt else {
            throw BenchError("the seeded people's next call is not at \(ISODate.format(dueAt))")
        }
        let chunk = 5_000
        for first in stride(from: 0, to: people, by: chunk) {
            try await store.write { tx in
                for i in first..<min(first + chunk, people) {
                    let user = User(
                        id: UserID(UUID()), phone: String(format: "+1555%07d", i), firstName: "Bench", lastName: "\(i)",
                        schedule: .dailyCall(call), reminders: .none, lastCheckInAt: checkedIn, createdAt: created,
                        contactCode: String(format: "bench%011d", i), isOnboarded: true, timeZone: "UTC")
                    try await tx.people.insert(
                        user, deadline: Deadline.of(user), nextActionAt: EscalationPlan.nextActionAt(for: user, stepsDone: 0, now: created))
                }
            }
        }
        await store.close()
    }
}

/// The bench's clock: `origin` from `start()` on, moving with the wall clock, plus the idle
/// waits it skipped (with `skipsIdle`), so the work is timed as it happens and the empty rest
/// of a second costs nothing.
final class BenchClock: Sendable {
    let origin: Date
    let skipsIdle: Bool
    private let state = Mutex<(started: ContinuousClock.Instant?, skipped: Duration)>((nil, .zero))

    init(origin: Date, skipsIdle: Bool) {
        self.origin = origin
        self.skipsIdle = skipsIdle
    }

    func start() { state.withLock { $0.started = ContinuousClock.now } }

    /// A second before `origin` until started.
    var now: Date {
        state.withLock { state in
            guard let started = state.started else { return origin.addingTimeInterval(-1) }
            return origin.addingTimeInterval(EscalationBench.seconds(ContinuousClock.now - started + state.skipped))
        }
    }

    /// Returns at the next whole second of this clock: at once, having skipped there, or
    /// after sleeping until then.
    func waitForNextSecond() async {
        let now = self.now
        let gap = CallPacing.Second.nextSecond(after: now).timeIntervalSince(now)
        if skipsIdle {
            state.withLock { $0.skipped += .nanoseconds(Int64(gap * 1e9)) }
        } else {
            try? await Task.sleep(for: .nanoseconds(Int64(gap * 1e9)))
        }
    }
}

/// The provider: answers every call at once, noting when it was placed on the bench's clock.
final class PlacedCalls: ChannelAdapter {
    let kind: ChannelKind = .voice
    let clock: BenchClock
    private let placed = Mutex<[Date]>([])

    init(clock: BenchClock) { self.clock = clock }

    func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        let at = clock.now
        placed.withLock { $0.append(at) }
        return ChannelReceipt(status: .queued, providerID: "CA\(message.deliveryID)")
    }

    var count: Int { placed.withLock { $0.count } }

    /// Seconds after `origin` of each placement, in order.
    func offsets(from origin: Date) -> [Double] { placed.withLock { $0.map { $0.timeIntervalSince(origin) }.sorted() } }
}

/// Each call against its slot: call `k` (in the order placed) belongs in second `k / rate`.
struct SlotReport {
    var first = 0.0
    var last = 0.0
    /// How far into its slot each call went out (negative: early), sorted.
    var lateness: [Double] = []
    /// Calls placed outside their second.
    var late = 0
    var busiestSecond = 0
    var beyondStallLimit = 0

    init(offsets: [Double], callsPerSecond: Int) {
        guard !offsets.isEmpty else { return }
        first = offsets[0]
        last = offsets[offsets.count - 1]
        lateness = offsets.enumerated().map { k, offset in offset - Double(CallPacing.slot(index: k, callsPerSecond: callsPerSecond)) }
            .sorted()
        late = lateness.filter { $0 < 0 || $0 >= 1 }.count
        busiestSecond = Dictionary(grouping: offsets) { Int($0.rounded(.down)) }.values.map(\.count).max() ?? 0
        beyondStallLimit = offsets.filter { $0 > 120 }.count
    }

    func percentile(_ p: Double) -> Double {
        lateness.isEmpty ? 0 : lateness[min(lateness.count - 1, Int(Double(lateness.count) * p))]
    }
    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
    var max: Double { lateness.last ?? 0 }
}
