import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
@_spi(Testing) import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalServer
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import Logging
import NIOCore
import Synchronization
import Testing

/// `/metrics` (read with Prometheus' own Python parser), the access log in JSON with request
/// ids, and `/health`'s delivery part.
@Suite("Observability")
struct ObservabilityTests {
    /// The app (with a metrics registry of its own, as every built app has) and its log,
    /// captured line by line in JSON.
    final class World: Sendable {
        let api: TestWorld
        let log: CapturedLog
        var core: ServiceCore { api.core }

        init() async throws {
            let log = CapturedLog()
            let logger = Logger(label: "lifesignal") { label in
                LineLogHandler(label: label, format: .json) { line in log.lines.withLock { $0.append(line) } }
            }
            api = try await TestWorld(dependencies: { $0.logger = logger })
            self.log = log
        }

        func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
            try await api.test(body)
        }

        /// Each captured line parsed as a JSON object.
        func logObjects() throws -> [[String: Any]] {
            try log.lines.withLock { $0 }.map { line in
                #expect(line.hasSuffix("\n") && !line.dropLast().contains("\n"), "one object per line")
                return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }
    }

    @Test func metricsParseAsPrometheusTextAndTheirCountersMove() async throws {
        let world = try await World()
        try await world.test { client in
            let ann = try await client.signUp(world.api, first: "Ann", phone: "+15550003001")
            let bob = try await client.signUp(world.api, first: "Bob", phone: "+15550003002")
            try await client.link(responder: bob.token, dependent: ann.token)

            let before = try await PrometheusText.parse(try await scrape(client))
            #expect(before.value("lifesignal_check_ins_total", ["source": "app"]) == nil)

            let checkIn = try await client.call(
                Operations.checkIn, token: ann.token, json: CheckInBody(id: CheckInID(UUID()), source: .app))
            #expect(checkIn.status == .created || checkIn.status == .ok)
            #expect(try await client.call(Operations.raiseAlert, token: ann.token).status.code < 300)
            // Deliver what is queued (the alert to Bob, "added you" notices) on the log channel.
            let worker = DeliveryService.worker(
                for: world.core, registry: ChannelRegistry([LogChannel(logger: Logger(label: "test"))]), owner: "test")
            #expect(try await worker.runOnce() > 0)

            let after = try await PrometheusText.parse(try await scrape(client))
            #expect(after.value("lifesignal_check_ins_total", ["source": "app"]) == 1)
            #expect(after.value("lifesignal_incidents_opened_total", ["kind": "manual_alert"]) == 1)
            #expect((after.value("lifesignal_delivery_attempts_total", ["channel": "log", "outcome": "delivered"]) ?? 0) >= 1)
            // Requests are counted by route pattern and status, with a latency histogram.
            #expect(
                after.value("lifesignal_http_requests_total", ["method": "POST", "route": "/v1/check-ins", "status": "201"])
                    ?? after.value("lifesignal_http_requests_total", ["method": "POST", "route": "/v1/check-ins", "status": "200"]) == 1)
            #expect(after.types["lifesignal_http_request_duration_seconds"] == "histogram")
            #expect((after.value("lifesignal_http_request_duration_seconds_count", ["method": "POST", "route": "/v1/alert"]) ?? 0) == 1)
            // The outbox gauges are sampled at the scrape: nothing due once the worker ran.
            #expect(after.types["lifesignal_outbox_due_deliveries"] == "gauge")
            #expect(after.value("lifesignal_outbox_due_deliveries", [:]) == 0)
            #expect(after.value("lifesignal_outbox_oldest_due_age_seconds", [:]) == 0)
            // Sampled before the scrape's own backlog read: nothing else is open.
            #expect(after.value("lifesignal_database_transactions_in_flight", [:]) == 0)
            // A raw path never becomes a label.
            let contact = try await client.call(Operations.getContact, ["id": bob.user.id.description], token: ann.token)
            #expect(contact.status == .ok)
            let routes = try await PrometheusText.parse(try await scrape(client)).labelValues("lifesignal_http_requests_total", "route")
            #expect(routes.contains("/v1/contacts/{id}"))
            #expect(!routes.contains { $0.contains(bob.user.id.description) })

            // A missed deadline: the engine's pass and the lag of each step it took.
            world.api.clock.advance(by: 2 * 86400)
            let pass = try await EscalationEngine(core: world.core, instance: "test").runPass()
            #expect(pass.incidentsOpened >= 1)
            let late = try await PrometheusText.parse(try await scrape(client))
            #expect((late.value("lifesignal_incidents_opened_total", ["kind": "missed_check_in"]) ?? 0) == Double(pass.incidentsOpened))
            #expect((late.value("lifesignal_escalation_pass_duration_seconds_count", [:]) ?? 0) == 1)
            #expect((late.value("lifesignal_escalation_step_lag_seconds_count", ["step": "open_incident"]) ?? 0) >= 1)
            // Taken a day or more after they were due: the +Inf bucket only.
            #expect(late.value("lifesignal_escalation_step_lag_seconds_bucket", ["step": "open_incident", "le": "3600.0"]) == 0)
        }
    }

    @Test func settingsComeFromTheEnvironmentAndBadValuesAreRefused() throws {
        let settings = try ObservabilitySettings.fromEnvironment([
            "LIFESIGNAL_LOG_FORMAT": "json", "LIFESIGNAL_DELIVERY_STALL_SECONDS": "300", "LIFESIGNAL_RETENTION": "off",
        ])
        #expect(settings.logFormat == .json)
        #expect(settings.deliveryStallSeconds == 300)
        #expect(settings.retention == false)
        #expect(try ObservabilitySettings.fromEnvironment([:]).logFormat == .text)
        #expect(throws: ConfigurationError.self) { try ObservabilitySettings.fromEnvironment(["LIFESIGNAL_LOG_FORMAT": "xml"]) }
        #expect(throws: ConfigurationError.self) { try ObservabilitySettings.fromEnvironment(["LIFESIGNAL_DELIVERY_STALL_SECONDS": "0"]) }
    }

    func scrape(_ client: any TestClientProtocol) async throws -> String {
        try await client.execute(uri: "/metrics", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            return String(buffer: response.body)
        }
    }

    @Test func everyResponseCarriesARequestIdAndEveryRequestOneJSONAccessLine() async throws {
        let world = try await World()
        try await world.test { client in
            let ann = try await client.signUp(world.api, first: "Ann", phone: "+15550004001")
            world.log.lines.withLock { $0.removeAll() }
            let given = try await client.execute(
                uri: "/v1/me/status", method: .get,
                headers: [.authorization: "Bearer \(ann.token)", HTTPField.Name("X-Request-Id")!: "edge-abc_123"]
            ) { $0 }
            #expect(given.headers[HTTPField.Name("X-Request-Id")!] == "edge-abc_123")
            // Not sane: too long, or characters outside [A-Za-z0-9_-]: a new id is made.
            for bad in [String(repeating: "a", count: 65), "bad id", "x\"y"] {
                let response = try await client.execute(
                    uri: "/nowhere", method: .get, headers: [HTTPField.Name("X-Request-Id")!: bad]
                ) { $0 }
                #expect(response.status == .notFound)
                let id = try #require(response.headers[HTTPField.Name("X-Request-Id")!])
                #expect(id != bad && (1...64).contains(id.count))
            }

            let lines = try world.logObjects().filter { ($0["message"] as? String) == "request" }
            #expect(lines.count == 4)
            let first = try #require(lines.first)
            #expect(first["request_id"] as? String == "edge-abc_123")
            #expect(first["route"] as? String == "/v1/me/status")
            #expect(first["method"] as? String == "GET")
            #expect(first["status"] as? String == "200")
            #expect(first["user_id"] as? String == ann.user.id.description)
            #expect(first["level"] as? String == "info")
            #expect(first["label"] as? String == "lifesignal")
            #expect(Double(first["duration_ms"] as? String ?? "") != nil)
            #expect((first["time"] as? String)?.hasSuffix("Z") == true)
            #expect(lines[1]["route"] as? String == "NotFound")
            #expect(lines[1]["user_id"] == nil)
            // No line carries a phone number.
            #expect(world.log.lines.withLock { $0 }.allSatisfy { !$0.contains("+15550004001") })
        }
    }

    @Test func healthReportsAStalledDeliveryWithItsReason() async throws {
        let world = try await World()
        try await world.test { client in
            let ann = try await client.signUp(world.api, first: "Ann", phone: "+15550005001")
            let bob = try await client.signUp(world.api, first: "Bob", phone: "+15550005002")
            _ = try await client.call(
                Operations.addContact, token: ann.token, json: AddContactBody(code: bob.user.contactCode, roles: .responder))
            // The engine part is out of this test: its heartbeat is written by hand.
            func engineBeat() async throws {
                let now = world.api.clock.now
                try await world.core.storeForTesting.write {
                    try await $0.engine.recordHeartbeat(EngineHeartbeat(instance: "test", lastPassAt: now, lastPassMicros: 1))
                }
            }
            func health() async throws -> (HTTPResponse.Status, [String: Any]) {
                try await client.execute(uri: "/health", method: .get) { response in
                    (response.status, try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]))
                }
            }
            try await engineBeat()
            let (green, body) = try await health()
            #expect(green == .ok, "\(body)")
            #expect((body["delivery"] as? [String: Any])?["healthy"] as? Bool == true)

            // The alert's deliveries are due; no worker takes them for over two minutes.
            #expect(try await client.call(Operations.raiseAlert, token: ann.token).status.code < 300)
            world.api.clock.advance(by: 125)
            try await engineBeat()
            let (red, stalled) = try await health()
            #expect(red == .serviceUnavailable)
            let delivery = try #require(stalled["delivery"] as? [String: Any])
            #expect(delivery["healthy"] as? Bool == false)
            #expect((delivery["reason"] as? String)?.contains("oldest due delivery has waited 125 s") == true, "\(delivery)")
            #expect((stalled["status"] as? String)?.hasPrefix("delivery stalled") == true)
            #expect((stalled["engine"] as? [String: Any])?["healthy"] as? Bool == true)

            let worker = DeliveryService.worker(
                for: world.core, registry: ChannelRegistry([LogChannel(logger: Logger(label: "test"))]), owner: "test")
            _ = try await worker.runOnce()
            let (again, _) = try await health()
            #expect(again == .ok)
        }
    }
}

/// Log lines as the handler wrote them.
final class CapturedLog: Sendable {
    let lines = Mutex<[String]>([])
}

/// Prometheus' text format read by `prometheus_client.parser.text_string_to_metric_families`
/// (the reference Python client), run through `$LIFESIGNAL_PYTHON`, the package's `.venv`, or
/// `python3`.
struct PrometheusText {
    struct Sample: Decodable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Parsed: Decodable {
        var samples: [Sample]
        var types: [String: String]

        func value(_ name: String, _ labels: [String: String]) -> Double? {
            samples.first { $0.name == name && $0.labels == labels }?.value
        }

        func labelValues(_ name: String, _ label: String) -> Set<String> {
            Set(samples.filter { $0.name == name }.compactMap { $0.labels[label] })
        }
    }

    static let script = """
        import json, sys
        from prometheus_client.parser import text_string_to_metric_families
        samples, types = [], {}
        for family in text_string_to_metric_families(sys.stdin.read()):
            types[family.name] = family.type
            for s in family.samples:
                samples.append({"name": s.name, "labels": s.labels, "value": s.value})
        # Counters are families without their _total suffix; say the sample name's type too.
        for s in samples:
            if s["name"].endswith("_total"):
                types.setdefault(s["name"], types.get(s["name"][:-6], "counter"))
        print(json.dumps({"samples": samples, "types": types}))
        """

    static func parse(_ text: String) async throws -> Parsed {
        let interpreter = try await TestPython.importing("prometheus_client")
        return try await onOwnThread { try Self.parse(text, with: interpreter) }
    }

    /// Blocks until the Python child has answered: called on a thread of its own.
    private static func parse(_ text: String, with python: String) throws -> Parsed {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let failure = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ParseError("prometheus_client could not parse /metrics:\n\(String(decoding: failure, as: UTF8.self))\n\(text)")
        }
        return try JSONDecoder().decode(Parsed.self, from: data)
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
