import Foundation
import LifeSignalTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@_spi(Testing) import LifeSignalCore
import LifeSignalModels
import LifeSignalRules
@_spi(Testing) import LifeSignalStore
import Logging
import Testing

/// Kills `lifesignal serve` with SIGKILL in the middle of a burst of due incidents on a real
/// SQLite file, restarts it on the same file and checks that every step happened exactly once.
///
/// The clock: `--test-clock` starts at real "now" on every start and nothing of it is persisted.
/// So the deadlines are seeded relative to real time (a minute from now, no grace) and each run
/// advances its clock by the same hour (the second two minutes more, past the dead instance's
/// leases). After the restart the clock is again about an hour past every deadline — the steps the killed server took are not due again (they are recorded as
/// done in the same transactions as their notifications), the rest are due and late. The second
/// clock is only seconds ahead of the first, so no incident's 15-minute repeat falls due.
@Suite("Crash recovery", .serialized, .timeLimit(.minutes(5)))
struct CrashRecoveryTests {
    static let dependents = 3000
    static let responders = 2
    /// The first of the dependents also have three plans each, due with their rhythm: each
    /// plan's alert is its own, beside the missed check-in, and each is taken once.
    static let planners = 300
    static let plansEach = 3
    static var planIncidents: Int { planners * plansEach }

    @Test func sigkillMidBurstThenRestartTakesEveryStepExactlyOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("crash.sqlite").path
        let (dependentIDs, responderIDs) = try await Self.seed(path: path, withPlans: true)

        // First run: jump an hour, wait for the burst to start, kill it mid-way.
        let first = try ServerProcess.start(database: path, port: try freePort(), log: directory.appendingPathComponent("first.log"))
        defer { first.kill() }  // also when an expectation below throws: never leave a server running
        try await first.waitUntilReady()
        try await first.advanceClock(seconds: 3600)
        let reader = try await Store.open(path, logger: Logger(label: "crash-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        // The first message the burst sends: its incident is stored, the burst has begun.
        try await first.waitForLine(seconds: 120, "the burst never started") { Self.sentDelivery($0) != nil }
        first.kill()
        let afterKill = try await Self.count(reader, "SELECT COUNT(*) AS n FROM incidents WHERE kind = 'missed_check_in'")
        #expect(afterKill > 0, "the burst never started")
        #expect(afterKill < Self.dependents, "the kill came after the burst (\(afterKill) incidents), not in the middle")
        print("crash test: killed with \(afterKill) of \(Self.dependents) incidents open")

        // Second run on the same file: the same hour forward again, plus two minutes so the
        // leases the killed instance held (60 s on people, 120 s on deliveries) have lapsed;
        // wait until everything is done.
        let second = try ServerProcess.start(database: path, port: try freePort(), log: directory.appendingPathComponent("second.log"))
        defer { second.kill() }
        try await second.waitUntilReady()
        try await second.advanceClock(seconds: 3600 + 120)
        // Every incident open and no step left due: asked each time the server has sent more
        // or the engine has logged a pass that did something (after its writes committed).
        let progress: @Sendable (String) -> Bool = { Self.sentDelivery($0) != nil || $0.contains("escalation pass") }
        try await second.watch(seconds: 180, "the restarted server did not finish the burst", relevant: progress) {
            let open = try await Self.count(reader, "SELECT COUNT(*) AS n FROM incidents")
            let horizon = Int64((Date().timeIntervalSince1970 + 3000) * 1000)
            let pending = try await Self.count(
                reader, "SELECT COUNT(*) AS n FROM users WHERE next_action_at IS NOT NULL AND next_action_at <= \(horizon)")
            let plansPending = try await Self.count(
                reader, "SELECT COUNT(*) AS n FROM plans WHERE next_action_at IS NOT NULL AND next_action_at <= \(horizon)")
            return open == Self.dependents + Self.planIncidents && pending == 0 && plansPending == 0
        }
        second.kill()
        #expect(try await Self.count(reader, "SELECT COUNT(*) AS n FROM incidents") == Self.dependents + Self.planIncidents)

        // Exactly once, from the database: one missed check-in per person, one alert per plan.
        #expect(try await Self.count(reader, "SELECT COUNT(DISTINCT user_id) AS n FROM incidents") == Self.dependents)
        #expect(
            try await Self.count(
                reader,
                "SELECT COUNT(*) AS n FROM (SELECT user_id FROM incidents WHERE kind = 'missed_check_in' GROUP BY user_id HAVING COUNT(*) > 1)"
            ) == 0)
        #expect(
            try await Self.count(reader, "SELECT COUNT(DISTINCT plan_id) AS n FROM incidents WHERE kind = 'plan_overdue'")
                == Self.planIncidents)
        #expect(
            try await Self.count(reader, "SELECT COUNT(*) AS n FROM plans WHERE state = 'overdue' AND next_action_at IS NULL")
                == Self.planIncidents)
        #expect(try await Self.count(reader, "SELECT COUNT(*) AS n FROM notifications WHERE type = 'plan_late'") == Self.planIncidents)
        // Each responder once per dependent (the dependent's own "they have been alerted" notice aside).
        #expect(
            try await Self.count(
                reader, "SELECT COUNT(*) AS n FROM notifications WHERE type = 'incident_opened' AND recipient_id <> subject_user_id")
                == (Self.dependents + Self.planIncidents) * Self.responders)
        #expect(
            try await Self.count(
                reader, "SELECT COUNT(*) AS n FROM notifications WHERE type = 'alert_sent' AND recipient_id = subject_user_id")
                == Self.dependents + Self.planIncidents)
        #expect(
            try await Self.count(
                reader,
                """
                SELECT COUNT(*) AS n FROM (SELECT recipient_id, incident_id FROM notifications
                WHERE type = 'incident_opened' GROUP BY recipient_id, incident_id HAVING COUNT(*) != 1)
                """) == 0)
        for responder in responderIDs {
            #expect(
                try await Self.count(
                    reader, "SELECT COUNT(*) AS n FROM notifications WHERE type = 'incident_opened' AND recipient_id = '\(responder)'")
                    == Self.dependents + Self.planIncidents)
        }
        #expect(try await Self.count(reader, "SELECT COUNT(*) AS n FROM notifications WHERE type = 'non_responsive'") == Self.dependents)
        #expect(
            try await Self.count(
                reader,
                "SELECT COUNT(*) AS n FROM (SELECT step_key FROM notifications WHERE step_key IS NOT NULL GROUP BY step_key HAVING COUNT(*) > 1)"
            ) == 0)
        #expect(
            try await Self.count(
                reader,
                "SELECT COUNT(*) AS n FROM notifications n WHERE NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.notification_id = n.id)")
                == 0)
        // Steps the restarted server took were late, and said so.
        let late = try await Self.count(reader, "SELECT COUNT(*) AS n FROM incidents WHERE late AND kind = 'missed_check_in'")
        #expect(late == Self.dependents - afterKill || late == Self.dependents)
        #expect(dependentIDs.count == Self.dependents)
        await reader.close()
    }

    /// Dependents whose deadline is a minute from now (24-hour rhythm, no reminder, no grace),
    /// each watched by every responder.
    static func seed(
        path: String, dependents: Int = dependents, responders: Int = responders, withPlans: Bool = false
    ) async throws -> ([UserID], [UserID]) {
        let store = try await Store.open(path, logger: Logger(label: "crash-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let now = Date(milliseconds: Date().milliseconds)
        let responders = (0..<responders).map { i in
            User(
                id: UserID(UUID()), phone: String(format: "+1555900%04d", i), firstName: "Responder", lastName: "\(i)",
                lastCheckInAt: now, createdAt: now.addingTimeInterval(-86400),
                contactCode: String(format: "crashr%010d", i), isOnboarded: true)
        }
        let dependents = (0..<dependents).map { i in
            User(
                id: UserID(UUID()), phone: String(format: "+1555100%04d", i), firstName: "Dependent", lastName: "\(i)",
                schedule: .interval(seconds: 86400), reminders: ReminderChoice.none, graceMinutes: 0,
                lastCheckInAt: now.addingTimeInterval(-86400 + 60), createdAt: now.addingTimeInterval(-2 * 86400),
                contactCode: String(format: "crashd%010d", i), isOnboarded: true)
        }
        try await store.write { tx in
            for user in responders + dependents {
                try await tx.people.insert(
                    user, deadline: Deadline.of(user), nextActionAt: EscalationPlan.nextActionAt(for: user, stepsDone: 0, now: now))
            }
            for dependent in dependents {
                for responder in responders {
                    try await tx.links.insert(LinkRecord(userID: dependent.id, contactID: responder.id, roles: .responder, addedAt: now))
                }
            }
            // Three plans each for the first ones, due with their rhythm (told "late" at once:
            // started an hour ago and due in a minute, no reminder left).
            guard withPlans else { return }
            for dependent in dependents.prefix(planners) {
                for index in 0..<plansEach {
                    let plan = Plan(
                        id: PlanID(UUID()), title: "Plan \(index)", startedAt: now.addingTimeInterval(-3600),
                        dueAt: now.addingTimeInterval(60 + Double(index)), details: "sealed \(index)")
                    try await tx.plans.insert(plan, of: dependent.id, step: PlanRule.Step.late.rawValue, nextActionAt: plan.dueAt)
                }
            }
        }
        await store.close()
        return (dependents.map(\.id), responders.map(\.id))
    }

    /// The delivery ids the development log channel printed (one line per message sent).
    static func printedDeliveries(_ log: URL) throws -> [String] {
        let text = try String(contentsOf: log, encoding: .utf8)
        return text.split(separator: "\n").compactMap { sentDelivery(String($0)) }
    }

    /// The delivery id of a line the development log channel printed for a message it sent.
    /// (The worker's lines about attempts name the delivery and channel too.)
    static func sentDelivery(_ line: String) -> String? {
        guard line.contains("channel=log"), !line.contains("Delivery attempt"), let range = line.range(of: "delivery=") else { return nil }
        return String(line[range.upperBound...].prefix(36))
    }

    /// The delivery id of the line the worker logs (at info level) once an attempt that
    /// succeeded is recorded.
    static func recordedDelivery(_ line: String) -> String? {
        guard line.contains("Delivery attempt succeeded"), let range = line.range(of: "delivery=") else { return nil }
        return String(line[range.upperBound...].prefix(36))
    }

    /// SIGKILL while deliveries are going out, then a restart on the same file: the same
    /// instance (its id is kept beside the database) takes back its dead run's delivery leases at
    /// once (instance id + boot id) instead of waiting out the 120-second lease, every delivery
    /// goes out, and the only messages sent twice are ones the dead run sent but had not
    /// recorded — each carrying its delivery id (here printed; `Idempotency-Key` on webhooks), so
    /// a receiver drops the second copy, and each recorded as "may have been sent twice".
    @Test func sigkillMidDeliveriesThenRestartOnTheSamePortResendsAtOnce() async throws {
        let (dependents, responders) = (150, 3)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("crash.sqlite").path
        _ = try await Self.seed(path: path, dependents: dependents, responders: responders)
        let port = try freePort()
        let (log1, log2) = (directory.appendingPathComponent("first.log"), directory.appendingPathComponent("second.log"))

        let firstStart = Date()
        let first = try ServerProcess.start(database: path, port: port, log: log1)
        defer { first.kill() }
        try await first.waitUntilReady()
        try await first.advanceClock(seconds: 3600)
        let reader = try await Store.open(path, logger: Logger(label: "crash-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        // Killed as soon as the first attempt is recorded: the worker says so once it is.
        try await first.waitForLine(seconds: 120, "no delivery was recorded") { Self.recordedDelivery($0) != nil }
        first.kill()
        await first.drained()
        let recordedAtKill = Set(
            try await reader.read { tx in
                try await tx.executor.query("SELECT id FROM deliveries WHERE status <> 'queued'", []).map { try $0.string("id") }
            })
        let storedAtKill = try await Self.count(reader, "SELECT COUNT(*) AS n FROM deliveries")
        let leasedAtKill = try await Self.count(
            reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued' AND lease_owner IS NOT NULL")
        let sentByFirst = try Self.printedDeliveries(log1)
        #expect(!recordedAtKill.isEmpty, "the kill came before any delivery")

        // Same port: the same instance, so its dead run's leases are its own to take back. Its
        // clock goes past the engine's 60-second leases on people, not past the 120-second
        // delivery leases: whatever the dead run held is only sent because it was taken back.
        let secondStart = Date()
        try #require(secondStart.timeIntervalSince(firstStart) < 55, "the delivery leases would have lapsed on their own")
        let second = try ServerProcess.start(database: path, port: port, log: log2)
        defer { second.kill() }
        try await second.waitUntilReady()
        let ready = ContinuousClock.now
        try await second.advanceClock(seconds: 3600 + 61)
        let pendingSQL = "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued'"
        let incidentsSQL = "SELECT COUNT(*) AS n FROM incidents"
        // Every incident open and nothing queued: asked each time the worker has recorded more.
        try await second.watch(seconds: 120, "the restarted server did not send everything", relevant: { Self.recordedDelivery($0) != nil })
        {
            guard try await Self.count(reader, incidentsSQL) == dependents else { return false }
            return try await Self.count(reader, pendingSQL) == 0
        }
        let allSent = ContinuousClock.now - ready
        second.kill()
        await second.drained()
        #expect(try await Self.count(reader, incidentsSQL) == dependents)
        #expect(try await Self.count(reader, pendingSQL) == 0, "deliveries still waiting: a dead lease was not taken back")

        let stored = Set(
            try await reader.read { tx in try await tx.executor.query("SELECT id FROM deliveries", []).map { try $0.string("id") } })
        let sentBySecond = try Self.printedDeliveries(log2)
        let sent = Set(sentByFirst).union(sentBySecond)
        let twice = Set(sentByFirst).intersection(sentBySecond)
        #expect(stored.isSubset(of: sent), "every delivery went out")
        #expect(sent.count == stored.count, "after dropping copies by delivery id, each message once")
        #expect(twice.isDisjoint(with: recordedAtKill), "a delivery recorded before the kill was never sent again")
        #expect(Set(sentByFirst).count == sentByFirst.count && Set(sentBySecond).count == sentBySecond.count, "no run sent one twice")
        // Every copy sent twice says so (its send had been noted as started before the kill).
        let doubted = Set(
            try await reader.read { tx in
                try await tx.executor.query("SELECT id, reason FROM deliveries", []).filter {
                    try $0.optionalString("reason") == StoreOutbox.possibleDuplicateReason
                }.map { try $0.string("id") }
            })
        #expect(twice.isSubset(of: doubted), "a delivery sent twice is not marked as possibly twice")
        await reader.close()
        print(
            "crash delivery test: deliveries=\(stored.count) stored_at_kill=\(storedAtKill) recorded_at_kill=\(recordedAtKill.count) "
                + "leased_unrecorded_at_kill=\(leasedAtKill) sent_by_dead_run=\(sentByFirst.count) sent_twice=\(twice.count) "
                + "marked_may_have_been_sent_twice=\(doubted.count) "
                + "after_dedupe_by_key=\(sent.count - stored.count) restart_to_all_sent_ms=\(allSent.components.seconds * 1000 + allSent.components.attoseconds / 1_000_000_000_000_000)"
        )
    }

    /// SIGTERM (a deploy, `systemctl restart`) while deliveries are going out: the server stops
    /// within its grace period, no delivery is recorded as failed and no timeline says so, what
    /// it had claimed and not sent waits unleased, and the next run (on another port) sends the
    /// rest at once, without any lease to take back — each message once.
    @Test func sigtermMidDeliveriesStopsCleanlyAndLeavesNothingLeased() async throws {
        let (dependents, responders) = (150, 3)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-term-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("term.sqlite").path
        _ = try await Self.seed(path: path, dependents: dependents, responders: responders)
        let (log1, log2) = (directory.appendingPathComponent("first.log"), directory.appendingPathComponent("second.log"))

        let first = try ServerProcess.start(database: path, port: try freePort(), log: log1)
        defer { first.kill() }
        try await first.waitUntilReady()
        try await first.advanceClock(seconds: 3600)
        let reader = try await Store.open(path, logger: Logger(label: "term-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await first.waitForLine(seconds: 120, "no delivery was recorded") { Self.recordedDelivery($0) != nil }
        let signalled = ContinuousClock.now
        first.process.terminate()
        _ = try await onOwnThread { [process = first.process] in process.waitUntilExit() }
        let stopped = ContinuousClock.now - signalled
        await first.drained()
        #expect(first.process.terminationReason == .exit)
        #expect(stopped < .seconds(20), "shutdown took \(stopped)")
        // Closed cleanly: the worker finished, then the WAL was copied into the file and truncated.
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
        #expect(wal == 0, "the stopped server left \(wal) bytes of WAL to replay")

        let failed = try await Self.count(reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'failed'")
        let leased = try await Self.count(
            reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued' AND lease_owner IS NOT NULL")
        let interrupted = try await Self.count(
            reader, "SELECT COUNT(*) AS n FROM deliveries WHERE reason LIKE 'Interrupted by shutdown%'")
        let falseHistory = try await Self.count(
            reader,
            "SELECT COUNT(*) AS n FROM timeline WHERE kind = 'delivery' AND (summary LIKE '%failed%' OR summary LIKE '%could not be reached%')"
        )
        let recordedAtStop = try await Self.count(reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status <> 'queued'")
        #expect(failed == 0)
        #expect(falseHistory == 0)
        #expect(leased == 0, "deliveries claimed and not sent were not given back")
        let sentByFirst = try Self.printedDeliveries(log1)

        // Another instance (another port: the first one's leases are not its own), at once.
        let second = try ServerProcess.start(database: path, port: try freePort(), log: log2)
        defer { second.kill() }
        try await second.waitUntilReady()
        let ready = ContinuousClock.now
        try await second.advanceClock(seconds: 3600 + 61)
        try await second.watch(seconds: 120, "the next instance did not send everything", relevant: { Self.recordedDelivery($0) != nil }) {
            guard try await Self.count(reader, "SELECT COUNT(*) AS n FROM incidents") == dependents else { return false }
            return try await Self.count(reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued'") == 0
        }
        let allSent = ContinuousClock.now - ready
        second.kill()
        await second.drained()
        let sentBySecond = try Self.printedDeliveries(log2)
        let twice = Set(sentByFirst).intersection(sentBySecond)
        #expect(twice.count <= interrupted, "only a send cut off by shutdown may go out twice")
        #expect(try await Self.count(reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'failed'") == 0)
        await reader.close()
        print(
            "sigterm delivery test: shutdown=\(stopped) recorded_at_stop=\(recordedAtStop) sent_by_first=\(sentByFirst.count) "
                + "interrupted=\(interrupted) leased_after_stop=\(leased) failed=\(failed) sent_twice=\(twice.count) next_instance_all_sent=\(allSent)"
        )
    }

    static func count(_ store: Store, _ sql: String) async throws -> Int {
        try await store.read { tx in try await tx.executor.queryFirst(sql).map { try $0.int("n") } ?? -1 }
    }
}

/// `lifesignal serve --test-clock` as a child process, its output read as it is written (and
/// written to `log` as it is read). It logs at info level: the line that says it listens, and
/// the worker's line for each attempt recorded, are what the tests wait for.
final class ServerProcess: Sendable {
    let process: Process
    let port: Int
    let output: ChildOutput

    init(process: Process, port: Int, output: ChildOutput) {
        self.process = process
        self.port = port
        self.output = output
    }

    /// `environment` is added to this process's own (Twilio's settings, an instance id…).
    static func start(database: String, port: Int, log: URL, environment extra: [String: String] = [:]) throws -> ServerProcess {
        let process = Process()
        process.executableURL = try Person.executable()
        process.arguments = ["serve", "--dev", "--test-clock", "--port", String(port), "--database", database]
        var environment = ProcessInfo.processInfo.environment
        environment["LIFESIGNAL_LOG_LEVEL"] = "info"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = try ChildOutput(pipe, tee: log)
        try process.run()
        return ServerProcess(process: process, port: port, output: output)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Returns once the server printed that it listens; fails when it exits first.
    func waitUntilReady() async throws {
        try await waitForLine(seconds: 30, "lifesignal serve did not say it listens on port \(port)", where: isListeningLine)
    }

    /// Returns once the server printed a line that `matches`; fails when it exits first, or
    /// after `seconds`.
    func waitForLine(seconds: Int, _ what: String, where matches: @escaping @Sendable (String) -> Bool) async throws {
        let output = output
        guard try await withFailureDeadline(seconds: seconds, what, { await output.firstLine(where: matches) != nil }) else {
            throw CLIError("\(what): lifesignal serve exited")
        }
    }

    /// Reads the server's output as it comes and, after each stretch of it that has a line
    /// `relevant` accepts, asks `done`; returns once that says yes. Fails when the server
    /// exits first, or after `seconds`.
    func watch(
        seconds: Int, _ what: String, relevant: @escaping @Sendable (String) -> Bool,
        until done: @escaping @Sendable () async throws -> Bool
    ) async throws {
        let output = output
        let finished = try await withFailureDeadline(seconds: seconds, what) {
            var seen = 0
            while let lines = await output.lines(after: seen) {
                seen = lines.endIndex
                if lines.contains(where: relevant), try await done() { return true }
            }
            return false
        }
        guard finished else { throw CLIError("\(what): lifesignal serve exited") }
    }

    /// Waits until everything the (stopped) server printed is read and in its log.
    func drained() async { _ = await output.ended() }

    func advanceClock(seconds: Double) async throws {
        var request = URLRequest(url: URL(string: "\(base)/test/clock/advance")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data("{\"seconds\":\(seconds)}".utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw CLIError("the clock did not move") }
    }

    /// SIGKILL: no graceful shutdown, no flush — the crash.
    func kill() {
        guard process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        // Not `waitUntilExit`: on Linux it can block for good (the child reaped elsewhere, see
        // `PrivatePostgres`), and a test blocked on a cooperative thread stalls every other
        // test in the process (two threads on this machine). SIGKILL is immediate; wait for
        // the exit at most 10 s, polling.
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
    }
}

/// A TCP port nothing listens on right now.
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw CLIError("socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    guard bound == 0 else { throw CLIError("bind failed") }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { throw CLIError("getsockname failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
