import Foundation
import LifeSignalTestSupport
@_spi(Testing) import LifeSignalCore
import LifeSignalModels
import LifeSignalRules
@_spi(Testing) import LifeSignalStore
import Logging
import Testing

/// Kills `lifesignal serve --test-clock` with SIGKILL as a 3-step ladder climbs — once just
/// after its second step began going out, once just after its third did — restarts it on the
/// same SQLite file each time, and checks from the database that every responder heard every
/// step once: none twice, none missing.
///
/// The clock is not persisted: each run starts at real "now" and is moved forward by the
/// offset the run before had reached, plus two minutes past the dead run's leases (60 s on
/// people and incidents, 120 s on deliveries). A step the dead run took is recorded in the
/// same transaction as its notifications and is not due again; the rest are due and late. A
/// restart is seconds long, far from the next step's 15 minutes.
@Suite("Ladder crash recovery", .serialized, .timeLimit(.minutes(5)))
struct LadderCrashTests {
    static let dependents = 300
    /// Her ladder: the first responder at once, the second 15 minutes later, the third 15 after.
    static let waits = [0, 15, 15]

    @Test func sigkillAtEachStepBoundaryNeitherRepeatsNorSkipsAStep() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-ladder-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ladder.sqlite").path
        let responders = try await Self.seed(path: path)
        let reader = try await Store.open(path, logger: Logger(label: "ladder-crash", factory: { _ in SwiftLogNoOpLogHandler() }))
        let port = try freePort()
        let sent: @Sendable (String) -> Bool = { CrashRecoveryTests.sentDelivery($0) != nil }
        // A message sent, its attempt recorded (after the send line), or a pass that did something.
        let progress: @Sendable (String) -> Bool = {
            sent($0) || CrashRecoveryTests.recordedDelivery($0) != nil || $0.contains("escalation pass")
        }
        let n = Self.dependents

        // First run: every incident opens (step 1), then 15 minutes on: killed once step 2 began.
        let first = try ServerProcess.start(database: path, port: port, log: directory.appendingPathComponent("first.log"))
        defer { first.kill() }
        try await first.waitUntilReady()
        try await first.advanceClock(seconds: 3600)
        try await first.watch(seconds: 60, "the incidents did not all open", relevant: progress) {
            try await Self.round(1, reader) == n
        }
        try await first.advanceClock(seconds: 15 * 60)
        try await first.watch(seconds: 60, "step 2 never started", relevant: sent) { try await Self.round(2, reader) > 0 }
        first.kill()
        let step2AtKill = try await Self.round(2, reader)
        #expect(step2AtKill < n, "the kill came after step 2 (\(step2AtKill) of \(n) incidents), not in the middle")
        var offset = 3600.0 + 15 * 60

        // Second run: step 2 finishes (late), then 15 minutes on: killed once step 3 began.
        offset += 120
        let second = try ServerProcess.start(database: path, port: port, log: directory.appendingPathComponent("second.log"))
        defer { second.kill() }
        try await second.waitUntilReady()
        try await second.advanceClock(seconds: offset)
        try await second.watch(seconds: 60, "step 2 did not finish after the restart", relevant: progress) {
            try await Self.round(2, reader) == n
        }
        try await second.advanceClock(seconds: 15 * 60)
        offset += 15 * 60
        try await second.watch(seconds: 60, "step 3 never started", relevant: sent) { try await Self.round(3, reader) > 0 }
        second.kill()
        let step3AtKill = try await Self.round(3, reader)
        #expect(step3AtKill < n, "the kill came after step 3 (\(step3AtKill) of \(n) incidents), not in the middle")

        // Third run: step 3 finishes; every delivery goes out.
        offset += 120
        let third = try ServerProcess.start(database: path, port: port, log: directory.appendingPathComponent("third.log"))
        defer { third.kill() }
        try await third.waitUntilReady()
        try await third.advanceClock(seconds: offset)
        try await third.watch(seconds: 60, "step 3 did not finish after the restart", relevant: progress) {
            guard try await Self.round(3, reader) == n else { return false }
            return try await CrashRecoveryTests.count(reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued'") == 0
        }
        third.kill()

        // Each responder on each step told: once per incident and step, from the database.
        // Steps are cumulative: step k's round goes to everyone on steps 1…k.
        let alerts = try await reader.read { tx in
            try await tx.executor.query(
                "SELECT recipient_id, subject_user_id, step_key FROM notifications WHERE type = 'incident_opened'", []
            ).map { (try $0.string("recipient_id"), try $0.string("subject_user_id"), try $0.optionalString("step_key") ?? "") }
        }
        var heard: [String: Int] = [:]
        for (recipient, subject, key) in alerts {
            let round = key.split(separator: ":").dropFirst(3).first.map(String.init) ?? "?"
            heard["\(subject) \(round) \(recipient)", default: 0] += 1
        }
        var expected: [String: Int] = [:]
        let people = try await reader.read { tx in
            try await tx.executor.query("SELECT DISTINCT subject_user_id FROM notifications WHERE type = 'incident_opened'", [])
                .map { try $0.string("subject_user_id") }
        }
        #expect(people.count == n)
        for person in people {
            for step in 1...3 {
                for responder in responders.prefix(step) { expected["\(person) \(step) \(responder)"] = 1 }
            }
        }
        let twice = heard.filter { $0.value > 1 }
        let missing = expected.keys.filter { heard[$0] == nil }
        let unexpected = heard.keys.filter { expected[$0] == nil }
        #expect(twice.isEmpty, "told twice: \(twice.keys.sorted().prefix(5))")
        #expect(missing.isEmpty, "never told: \(missing.sorted().prefix(5))")
        #expect(unexpected.isEmpty, "told out of turn: \(unexpected.sorted().prefix(5))")
        #expect(alerts.count == n * 6)
        // A step a restarted server took was late and told its new people so; one the first
        // server took in time was not. (The second run's clock is two minutes past the steps'
        // times from its start, so all its step 3s are late.)
        for (step, atKill) in [(2, step2AtKill), (3, 0)] {
            let late = try await CrashRecoveryTests.count(
                reader,
                """
                SELECT COUNT(*) AS n FROM notifications WHERE type = 'incident_opened'
                AND step_key LIKE '%:round:\(step):\(responders[step - 1])' AND body LIKE 'This was due %'
                """)
            #expect(late == n - atKill, "step \(step)")
        }
        // Every alert has its deliveries, each sent once.
        #expect(
            try await CrashRecoveryTests.count(
                reader,
                """
                SELECT COUNT(*) AS n FROM notifications n WHERE n.type = 'incident_opened'
                AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.notification_id = n.id)
                """) == 0)
        #expect(
            try await CrashRecoveryTests.count(
                reader,
                "SELECT COUNT(*) AS n FROM (SELECT notification_id FROM deliveries GROUP BY notification_id, channel HAVING COUNT(*) > 1)"
            ) == 0)
        #expect(try await CrashRecoveryTests.count(reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued'") == 0)
        #expect(try await CrashRecoveryTests.count(reader, "SELECT COUNT(*) AS n FROM incidents") == n)
        await reader.close()
        print("ladder crash test: step2_at_first_kill=\(step2AtKill) step3_at_second_kill=\(step3AtKill) of \(n)")
    }

    /// How many incidents have told their responders round `round` (1-based: the ladder's step,
    /// no repeat falls due in this test).
    static func round(_ round: Int, _ reader: Store) async throws -> Int {
        try await CrashRecoveryTests.count(
            reader,
            "SELECT COUNT(DISTINCT subject_user_id) AS n FROM notifications WHERE type = 'incident_opened' AND step_key LIKE '%:round:\(round):%'"
        )
    }

    /// Dependents whose deadline is a minute from now (24-hour rhythm, no reminder, no grace),
    /// each watched by the same three responders, on the ladder `waits` describes, one
    /// responder a step. Returns the responders in the ladder's order.
    static func seed(path: String) async throws -> [UserID] {
        let (dependents, responders) = try await CrashRecoveryTests.seed(path: path, dependents: Self.dependents, responders: 3)
        let store = try await Store.open(path, logger: Logger(label: "ladder-crash", factory: { _ in SwiftLogNoOpLogHandler() }))
        let ladder = Ladder(
            steps: zip(responders, Self.waits).map { Ladder.Step(responders: [$0], waitMinutes: $1) }, version: 1)
        let saved = try await store.write { tx in
            var saved = 0
            for dependent in dependents where try await tx.ladders.save(dependent, ladder, expected: 0, at: Date()) { saved += 1 }
            return saved
        }
        #expect(saved == Self.dependents)
        await store.close()
        return responders
    }
}
