import Foundation
import Hummingbird
import LifeSignalTestSupport
import Logging
import NIOCore
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@_spi(Testing) import LifeSignalCore
@_spi(Testing) import LifeSignalStore

/// Two `lifesignal serve` processes on one PostgreSQL database, texting through a Twilio
/// look-alike; one is killed (SIGKILL) in the middle of a burst with sends in flight. The
/// survivor notices the silence, takes the dead instance's deliveries over without waiting out
/// their 120-second leases, and sends each once — or, for the sends that were in flight at the
/// kill, again and marked "may have been sent twice". PostgreSQL only.
@Suite("A dead instance's work taken over", .serialized, .timeLimit(.minutes(5)))
struct PeerTakeoverTests {
    static var postgresURL: String? { TestBackend.postgresURL }

    @Test(.enabled(if: postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")"))
    func sigkillOneOfTwoInstancesMidBurstTheOtherSendsEverythingOnce() async throws {
        let (dependents, responders) = (150, 3)
        let database = try await ScratchPostgres.make()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-peers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try await CrashRecoveryTests.seed(path: database.url, dependents: dependents, responders: responders)
            // The first 40 messages are answered, the rest held unanswered until released: the
            // victim dies with sends in flight (handed to the provider, never recorded).
            // Its clock agrees with the servers' test clocks (an hour ahead), so the texts it lists
            // fall in the window the survivor looks in.
            let twilio = HoldingTwilio(answerFirst: 40, clockOffset: 3600)
            try await twilio.run { base in
                try await Self.burst(
                    database: database.url, twilio: twilio, base: base, directory: directory, expected: dependents * (responders + 2))
            }
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }

    static func burst(database url: String, twilio: HoldingTwilio, base: String, directory: URL, expected: Int) async throws {
        func environment(_ id: String) -> [String: String] {
            [
                "LIFESIGNAL_INSTANCE_ID": id, "LIFESIGNAL_DEFAULT_CHANNEL": "sms",
                "LIFESIGNAL_TWILIO_ACCOUNT_SID": HoldingTwilio.accountSID, "LIFESIGNAL_TWILIO_AUTH_TOKEN": "tw-token-0123456789a1b2",
                "LIFESIGNAL_TWILIO_FROM": "+15557654321", "LIFESIGNAL_TWILIO_BASE_URL": base,
                "LIFESIGNAL_SERVER_KEY": String(repeating: "5a", count: 32),
                // One public address for both, as behind a load balancer: a text's link, and so
                // its body, is the same whichever instance renders it.
                "LIFESIGNAL_PUBLIC_URL": "https://lifesignal.example",
            ]
        }
        // Six connections each: the full suite shares one PostgreSQL server (300 connections)
        // among every suite running at once.
        let url = url + (url.contains("?") ? "&" : "?") + "pool_max_conns=6"
        // The victim starts first, so the survivor's test clock (each starts at real now and
        // stands still) is later than every due time the victim writes.
        let victim = try ServerProcess.start(
            database: url, port: try freePort(), log: directory.appendingPathComponent("victim.log"), environment: environment("victim"))
        defer { victim.kill() }
        try await victim.waitUntilReady()
        let survivor = try ServerProcess.start(
            database: url, port: try freePort(), log: directory.appendingPathComponent("survivor.log"),
            environment: environment("survivor"))
        defer { survivor.kill() }
        try await survivor.waitUntilReady()

        // The victim's clock reaches every deadline; it takes the whole burst.
        try await victim.advanceClock(seconds: 3600)
        try await victim.waitForLine(seconds: 120, "the victim recorded no send") { CrashRecoveryTests.recordedDelivery($0) != nil }
        // Killed as soon as a few are held: before any held send could time out (the adapter
        // gives up after 15 s; a retry would then wait for a clock that stands still).
        try await withFailureDeadline(seconds: 60, "the victim never had sends in flight") { await twilio.holding(atLeast: 4) }
        victim.kill()
        let killed = Date()
        let heldAtKill = twilio.held
        await victim.drained()
        twilio.release()  // (their answers go to a dead process)
        let reader = try await Store.open(url, logger: Logger(label: "peers-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let leasedToVictim = try await CrashRecoveryTests.count(
            reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued' AND lease_owner LIKE 'victim#%'")
        let markedAtKill = try await CrashRecoveryTests.count(
            reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued' AND sending_since IS NOT NULL")
        #expect(leasedToVictim > 0, "the victim held nothing at its death")

        // The survivor's clock too; its lease on nothing of the victim's ever lapses by itself
        // (its clock stands still), so whatever it sends of the victim's it took over.
        try await survivor.advanceClock(seconds: 3600)
        try await survivor.waitForLine(seconds: 90, "the survivor never took the victim's work over") {
            $0.contains("peer instance silent") && $0.contains("victim#")
        }
        let tookOver = Date()
        let health = try await survivor.get("/health")
        #expect(health.status == 200, "a missing peer does not make the survivor unhealthy: \(health.body)")
        let report = try JSONSerialization.jsonObject(with: Data(health.body.utf8)) as? [String: Any]
        let peers = report?["peers"] as? [String: Any]
        let missing = (peers?["missing"] as? [[String: Any]]) ?? []
        #expect(missing.contains { $0["instanceID"] as? String == "victim" && $0["takenOver"] as? Bool == true }, "\(health.body)")
        #expect(peers?["live"] as? Int == 1, "\(health.body)")

        do {
            try await survivor.watch(
                seconds: 120, "the survivor did not send everything", relevant: { CrashRecoveryTests.recordedDelivery($0) != nil }
            ) {
                try await CrashRecoveryTests.count(reader, "SELECT COUNT(*) AS n FROM deliveries WHERE status = 'queued'") == 0
            }
        } catch {
            // What was left, for the failure's reader; the logs are kept.
            let left = try await reader.read { tx in
                try await tx.executor.query(
                    "SELECT status, reason, attempts, lease_owner, next_attempt_at, sending_since FROM deliveries WHERE status = 'queued' LIMIT 5",
                    []
                ).map { "\($0)" }
            }
            try? FileManager.default.copyItem(at: directory, to: URL(fileURLWithPath: "/tmp/peers-failed-\(UUID().uuidString.prefix(8))"))
            print("peer takeover test: left queued: \(left)")
            throw error
        }
        survivor.kill()
        await survivor.drained()

        // Every delivery went out once, or twice and marked as possibly twice.
        let rows = try await reader.read { tx in
            try await tx.executor.query("SELECT id, status, reason FROM deliveries", []).map {
                (id: try $0.string("id"), status: try $0.string("status"), reason: try $0.optionalString("reason"))
            }
        }
        let sends = twilio.sendsByDelivery()
        let twice = rows.filter { (sends[$0.id] ?? 0) > 1 }
        let marked = rows.filter { $0.reason == StoreOutbox.possibleDuplicateReason }
        let found = rows.filter { $0.reason == StoreOutbox.foundAtProviderReason }
        #expect(rows.count == expected)
        #expect(rows.allSatisfy { $0.status == "sent" }, "\(Dictionary(grouping: rows, by: \.status).mapValues(\.count))")
        #expect(rows.allSatisfy { (sends[$0.id] ?? 0) >= 1 }, "a delivery never reached the provider")
        #expect(rows.allSatisfy { (sends[$0.id] ?? 0) <= 2 })
        #expect(twice.allSatisfy { $0.reason == StoreOutbox.possibleDuplicateReason }, "a delivery sent twice is not marked")
        // Every text in flight at the kill reached the fake, which lists it: found, not resent.
        #expect(twice.isEmpty, "a text Twilio already had was sent again")
        #expect(!found.isEmpty && found.allSatisfy { (sends[$0.id] ?? 0) == 1 })
        #expect(Set(sends.keys) == Set(rows.map(\.id)), "the provider got a message no delivery accounts for")
        await reader.close()
        let lastSend = twilio.lastRequestAt ?? killed
        print(
            "peer takeover test: database=postgres deliveries=\(rows.count) leased_to_victim_at_kill=\(leasedToVictim) "
                + "in_flight_at_kill=\(heldAtKill) marked_sending_at_kill=\(markedAtKill) sent_twice=\(twice.count) "
                + "marked_may_have_been_sent_twice=\(marked.count) found_at_provider=\(found.count) lookups=\(twilio.lookups) "
                + "kill_to_takeover_s=\(String(format: "%.1f", tookOver.timeIntervalSince(killed))) "
                + "kill_to_last_send_s=\(String(format: "%.1f", lastSend.timeIntervalSince(killed)))")
    }
}

extension ServerProcess {
    /// A GET on the server: status and body.
    func get(_ path: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: "\(base)\(path)")!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

/// A Twilio look-alike that counts every message by the delivery id in its status-callback
/// URL, answers the first `answerFirst` at once and holds the rest unanswered (in flight at
/// the provider) until ``release()``; after that it answers everything at once.
final class HoldingTwilio: Sendable {
    static let accountSID = "AC0123456789abcdef0123456789abcdef"

    private struct State {
        var received: [(delivery: String?, at: Date)] = []
        /// What Twilio would list: every text it received, held ones included.
        var texts: [(sid: String, to: String, body: String, created: Date)] = []
        var open = false
        var held = 0
        var lookups = 0
        var gate: [CheckedContinuation<Void, Never>] = []
        var watchers: [(count: Int, done: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    let answerFirst: Int

    let clockOffset: TimeInterval

    init(answerFirst: Int, clockOffset: TimeInterval = 0) {
        self.answerFirst = answerFirst
        self.clockOffset = clockOffset
    }

    var held: Int { state.withLock { $0.held } }
    /// How often the message list was asked for.
    var lookups: Int { state.withLock { $0.lookups } }
    var lastRequestAt: Date? { state.withLock { $0.received.last?.at } }

    /// How many requests each delivery id came in.
    func sendsByDelivery() -> [String: Int] {
        state.withLock { state in
            var counts: [String: Int] = [:]
            for request in state.received { if let id = request.delivery { counts[id, default: 0] += 1 } }
            return counts
        }
    }

    /// Returns once at least `count` requests are held.
    func holding(atLeast count: Int) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.held >= count { return true }
                state.watchers.append((count, done))
                return false
            }
            if now { done.resume() }
        }
    }

    /// Answers every held request, and every later one at once.
    func release() {
        let waiting = state.withLock { state in
            state.open = true
            defer { state.gate.removeAll() }
            return state.gate
        }
        for request in waiting { request.resume() }
    }

    func run<R: Sendable>(_ body: (_ baseURL: String) async throws -> R) async throws -> R {
        let router = Router()
        router.post("2010-04-01/Accounts/:account/:resource") { request, context -> Response in
            let text = String(buffer: try await request.body.collect(upTo: 1 << 20))
            let callback = text.split(separator: "&").first { $0.hasPrefix("StatusCallback=") }
                .flatMap { String($0.dropFirst("StatusCallback=".count)).removingPercentEncoding }
            let delivery = callback.flatMap { $0.range(of: "delivery=") }.map { String(callback![$0.upperBound...].prefix(36)) }
            let form = FormBody.decode(text)
            let (number, hold) = self.state.withLock { state -> (Int, Bool) in
                state.received.append((delivery, Date()))
                let number = state.received.count
                state.texts.append(
                    (
                        "SM" + String(format: "%032d", number), form["To"] ?? "", form["Body"] ?? "",
                        Date().addingTimeInterval(self.clockOffset)
                    ))
                return (number, !state.open && number > self.answerFirst)
            }
            if hold {
                await withCheckedContinuation { (answer: CheckedContinuation<Void, Never>) in
                    let (open, reached) = self.state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                        if state.open { return (true, []) }
                        state.gate.append(answer)
                        state.held += 1
                        let reached = state.watchers.filter { $0.count <= state.held }.map(\.done)
                        state.watchers.removeAll { $0.count <= state.held }
                        return (false, reached)
                    }
                    for watcher in reached { watcher.resume() }
                    if open { answer.resume() }
                }
            }
            let sid = "SM" + String(format: "%032d", number)
            return Response(
                status: .created, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"sid":"\#(sid)","status":"queued"}"#)))
        }
        // Twilio's message list (newest first), which the survivor asks before sending a text
        // whose earlier attempt is in doubt.
        // (On the POST's path: a literal `Messages.json` node would take its POSTs too.)
        router.get("2010-04-01/Accounts/:account/:resource") { request, context -> Response in
            guard context.parameters.get("resource") == "Messages.json" else { return Response(status: .notFound) }
            let to = request.uri.queryParameters.get("To") ?? ""
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
            let listed = self.state.withLock { $0.texts }.filter { $0.to == to }.reversed().map {
                ["sid": $0.sid, "to": $0.to, "body": $0.body, "status": "sent", "date_created": formatter.string(from: $0.created)]
            }
            self.state.withLock { $0.lookups += 1 }
            let data = try JSONSerialization.data(withJSONObject: ["messages": listed])
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data)))
        }
        // Nothing may stay held when the fake stops.
        return try await withLocalServer(router, label: "holding-twilio", onExit: { self.release() }) { port in
            try await body("http://127.0.0.1:\(port)")
        }
    }
}
