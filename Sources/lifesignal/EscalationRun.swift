import AsyncHTTPClient
import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalStore
import Logging

/// What one run of `bench escalation` measured, on one database.
struct EscalationRunResult {
    var database: String
    var instances: Int
    var seedSeconds: Double
    var alerts: AttemptRecorder.Latency
    var reminders: AttemptRecorder.Latency
    var otherAttempts: Int
    var incidentsOpened: Int
    var remindersSent: Int
    var openInDB: Int
    var engineDone: Double
    var idleMedian: Double
    var rss: Double
    var received = ""

    /// Every first alert within 30 s, p50 within 15 s, under 500 MB (issue 35's targets).
    var targets: String {
        func yes(_ b: Bool) -> String { b ? "yes" : "no" }
        return "targets: all_done_30s=\(yes(alerts.allDone <= 30)) p50_15s=\(yes(alerts.p50 <= 15_000)) "
            + "rss_500mb=\(yes(rss < 500)) fair=\(yes(alerts.p50 < alerts.allDone * 1000 / 2)) "
            + "alerts_ahead=\(reminders.count == 0 ? "n/a" : yes(alerts.p50 <= reminders.p50 && alerts.p99 <= reminders.p99))"
    }
}

extension EscalationBench {
    /// Seeds `location` (a SQLite path or an empty PostgreSQL database), then runs `instances`
    /// engines and workers in this process — each with its own store connection, core and
    /// handoff, as separate servers would — from the due moment until every alert and
    /// reminder has had its first attempt.
    func measure(location: String, label: String, instances: Int) async throws -> EscalationRunResult {
        let responders = responders ?? ladderSteps
        // The due moment: a whole minute, an hour from now.
        let dueAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 + 3600)
        let seedStart = ContinuousClock.now
        let hook = channel == .webhook ? "http://127.0.0.1:\(receiverPort)/hook" : nil
        try await Self.seed(
            users: users, due: due, reminders: reminders, dueAt: dueAt, path: location, webhook: hook, ladderSteps: ladderSteps,
            responders: responders)
        let seedSeconds = Self.seconds(ContinuousClock.now - seedStart)
        print(
            String(
                format: "[%@] seeded %d users (%d due at %@, %d reminders, %d-step ladders, %d responders each) in %.1f s",
                label, users, due, ISODate.format(dueAt), reminders, ladderSteps, responders, seedSeconds))

        // Peak RSS from here on: seeding's own memory is not the engine's.
        Self.resetPeakRSS()

        let silent = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let clock = ManualClock(dueAt.addingTimeInterval(-1))
        // The alerts at open: everyone on the first step (all of them when there is one).
        let recorder = AttemptRecorder(expectedAlerts: due * (ladderSteps == 1 ? responders : 1), expectedReminders: reminders)
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
                configuration: .init(secret: "bench-server-secret", allowPrivateNetworks: true, reuseConnections: !oneShotWebhooks),
                httpClient: HTTPClient.shared, logger: silent)
            adapters.append(TimedChannel(inner: webhook, recorder: recorder))
        }
        let registry = ChannelRegistry(adapters)
        // One store, core, engine and worker per instance: the servers `lifesignal serve` runs.
        var stores: [Store] = []
        var engines: [EscalationEngine] = []
        var workers: [OutboxWorker] = []
        for n in 1...instances {
            let store = try await Store.open(location, logger: silent)
            var environment = ServiceEnvironment.live(logger: silent)
            environment.now = { clock.now }
            let core = ServiceCore(
                store: store, environment: environment, configuration: ServiceConfiguration(defaultChannel: .log),
                codeSender: SignInCodeSender { _, _ in })
            var engine = EscalationEngine(core: core, instance: "bench-engine-\(n)")
            engine.batchSize = engineBatch
            stores.append(store)
            engines.append(engine)
            workers.append(DeliveryService.worker(for: core, registry: registry, owner: "bench-worker-\(n)", batchSize: workerBatch))
        }
        // A pass before the due moment: nothing to do (warms caches like a running server would be).
        for engine in engines { _ = try await engine.runPass() }

        clock.set(dueAt)
        let start = ContinuousClock.now
        recorder.start(at: start)
        let (engineList, workerList) = (engines, workers)
        typealias Totals = (incidentsOpened: Int, reminders: Int, seconds: Double)
        let runEngines = { @Sendable () async throws -> Totals in
            try await withThrowingTaskGroup(of: Totals.self) { group in
                for engine in engineList {
                    group.addTask {
                        var total: Totals = (0, 0, 0)
                        while true {
                            let pass = try await engine.runPass()
                            if pass.total == 0 { break }
                            total.incidentsOpened += pass.incidentsOpened
                            total.reminders += pass.reminders
                            total.seconds = Self.seconds(ContinuousClock.now - start)
                        }
                        return total
                    }
                }
                return try await group.reduce(into: (0, 0, 0)) {
                    $0 = ($0.0 + $1.incidentsOpened, $0.1 + $1.reminders, max($0.2, $1.seconds))
                }
            }
        }
        let deadline = start + .seconds(900)
        let runWorkers = { @Sendable in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in workerList {
                    group.addTask {
                        while !recorder.isDone, ContinuousClock.now < deadline {
                            if try await worker.runOnce() == 0 { try await Task.sleep(for: .milliseconds(5)) }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let totals: Totals
        if sequential {
            totals = try await runEngines()
            try await runWorkers()
        } else {
            async let engined = runEngines()
            try await runWorkers()
            totals = try await engined
        }
        // Drain the rest (the people's own notices).
        for worker in workers { while try await worker.runOnce() > 0 {} }
        let stats = recorder.summary()

        var idle: [Double] = []
        for _ in 0..<idlePasses {
            let t = ContinuousClock.now
            let pass = try await engines[0].runPass()
            precondition(pass.total == 0)
            idle.append(Self.seconds(ContinuousClock.now - t) * 1000)
        }
        idle.sort()
        let rss = Self.peakRSSMegabytes()
        let openCount = try await stores[0].read { try await $0.engine.openIncidentCount() }
        for store in stores { await store.close() }
        var result = EscalationRunResult(
            database: label, instances: instances, seedSeconds: seedSeconds, alerts: stats.alerts, reminders: stats.reminders,
            otherAttempts: stats.otherAttempts, incidentsOpened: totals.incidentsOpened, remindersSent: totals.reminders,
            openInDB: openCount, engineDone: totals.seconds, idleMedian: idle.isEmpty ? 0 : idle[idle.count / 2], rss: rss)
        if let receiver {
            let tally = try await WebhookReceiver.tally(port: receiver.port)
            result.received = String(format: " webhook_received=%d bad_signatures=%d", tally.verified, tally.rejected)
        }
        report(result)
        return result
    }

    func report(_ r: EscalationRunResult) {
        let label = r.database
        print(
            String(
                format: "[%@] engine: incidents_opened=%d reminders=%d open_in_db=%d engine_done_s=%.3f", label, r.incidentsOpened,
                r.remindersSent, r.openInDB, r.engineDone))
        for (kind, l) in [("alerts", r.alerts), ("reminders", r.reminders)] where l.count > 0 {
            print(
                String(
                    format: "[%@] %@ due→first attempt: count=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f", label, kind, l.count, l.p50,
                    l.p99, l.max))
        }
        print(
            String(format: "[%@] idle pass at %d users: median_ms=%.2f; peak RSS after seeding %.0f MB", label, users, r.idleMedian, r.rss))
        print("[\(label)] \(r.targets)")
        print(
            "escalation: db=\(label) instances=\(r.instances) channel=\(channel.rawValue) users=\(users) due=\(due) "
                + "reminders=\(reminders) ladder_steps=\(ladderSteps) responders=\(responders ?? ladderSteps) "
                + String(
                    format:
                        "seed_s=%.1f incidents=%d engine_done_s=%.3f all_done_s=%.3f p50_latency_ms=%.1f p99_latency_ms=%.1f "
                        + "reminders_done_s=%.3f reminders_p50_ms=%.1f reminders_p99_ms=%.1f idle_pass_ms=%.2f rss_mb=%.0f",
                    r.seedSeconds, r.alerts.count, r.engineDone, r.alerts.allDone, r.alerts.p50, r.alerts.p99, r.reminders.allDone,
                    r.reminders.p50, r.reminders.p99, r.idleMedian, r.rss) + r.received)
    }
}
