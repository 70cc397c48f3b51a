import ArgumentParser
import Foundation
import LifeSignalCore
import LifeSignalRules
import LifeSignalStore

/// Seeds a large population on a fresh SQLite file, makes a block of people miss their
/// deadline in the same minute (and, with `--reminders`, another block's reminders fall due in
/// it too), and measures the escalation engine and an outbox worker in this process against a
/// manual clock set to the due moment.
///
/// `--database postgres://…` runs on a fresh database made next to the one named (the role
/// needs CREATEDB; dropped afterwards), with `--instances` engines and workers sharing it;
/// `--with-sqlite` runs the same burst on SQLite first and prints PostgreSQL's times over
/// SQLite's.
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
    @Option(help: "Users whose reminder is due in that same minute.") var reminders = 0
    @Option(help: "Engines and workers sharing the database (PostgreSQL), each with its own connections.")
    var instances = 1
    @Flag(name: .customLong("with-sqlite"), help: "With a postgres:// database: run the same burst on SQLite first, and print the ratio.")
    var withSQLite = false
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
    @Flag(help: "One client and connection per webhook call (as before connection reuse), for comparison.")
    var oneShotWebhooks = false
    @Flag(help: .hidden) var serveWebhookReceiver = false

    func run() async throws {
        if serveWebhookReceiver { return try await WebhookReceiver.serve(port: receiverPort, secret: Self.webhookSecret) }
        let responders = responders ?? ladderSteps
        precondition(responders >= ladderSteps, "--responders must be at least --ladder-steps (each step has a responder)")
        precondition(due * (responders + 1) + reminders <= users, "--due × (--responders + 1) + --reminders must be at most --users")
        precondition((1...LadderRule.maxSteps).contains(ladderSteps), "--ladder-steps is 1 to \(LadderRule.maxSteps)")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sqlitePath = dir.appendingPathComponent("escalation.sqlite").path
        guard let database, database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") else {
            precondition(instances == 1, "--instances needs a postgres:// database (SQLite is one instance)")
            _ = try await measure(location: database ?? sqlitePath, label: "sqlite", instances: 1)
            return
        }
        let sqlite = withSQLite ? try await measure(location: sqlitePath, label: "sqlite", instances: 1) : nil
        let fresh = try await ScratchDatabase.make(next: database, prefix: "bench_")
        let pg: EscalationRunResult
        do {
            pg = try await measure(location: fresh.url, label: "postgres", instances: instances)
        } catch {
            await fresh.drop()
            throw error
        }
        await fresh.drop()
        if let sqlite {
            print(
                String(
                    format:
                        "escalation ratio: instances=%d all_done_pg_over_sqlite=%.2f p50_pg_over_sqlite=%.2f "
                        + "p99_pg_over_sqlite=%.2f engine_pg_over_sqlite=%.2f within_1.5x=%@",
                    instances, pg.alerts.allDone / sqlite.alerts.allDone, pg.alerts.p50 / sqlite.alerts.p50,
                    pg.alerts.p99 / sqlite.alerts.p99, pg.engineDone / sqlite.engineDone,
                    pg.alerts.allDone <= 1.5 * sqlite.alerts.allDone ? "yes" : "no"))
        }
    }

    /// The signing secret every bench webhook channel gets (each has its own row, as registered).
    static let webhookSecret = "whsec_bench_0123456789abcdefghijklmnopqrstuv"

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
