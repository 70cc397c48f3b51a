import Foundation
import LifeSignalTestSupport
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Hummingbird
import Logging
import NIOCore
import Synchronization
import Testing

/// `lifesignal serve` and `lifesignal config check` as the built executable: the start-up
/// check, development and production modes, and codes that never reach the log.
@Suite struct ServeModeTests {
    static let twilio = [
        "LIFESIGNAL_TWILIO_ACCOUNT_SID": "AC0123456789abcdef0123456789abcdef",
        "LIFESIGNAL_TWILIO_AUTH_TOKEN": "tw-token-0123456789a1b2",
        "LIFESIGNAL_TWILIO_FROM": "+15557654321",
    ]

    /// Runs `lifesignal` with only `environment` of the `LIFESIGNAL_*` variables, in a scratch directory.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-mode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await Run.lifesignal(arguments, environment: Self.environment(environment), in: directory)
    }

    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LIFESIGNAL_") }
        env.merge(extra) { $1 }
        return env
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func serveWithoutDevAndWithoutASenderRefusesToStart() async throws {
        let run = try await Self.run(["serve", "--port", String(try freePort())])
        #expect(run.status == 78)
        #expect(
            Self.lines(run.stderr) == [
                "lifesignal: no sign-in code sender is configured: set LIFESIGNAL_TWILIO_ACCOUNT_SID, LIFESIGNAL_TWILIO_AUTH_TOKEN and LIFESIGNAL_TWILIO_FROM, or run with --dev"
            ])
    }

    @Test func serveRefusesEachContradictionOnALineOfItsOwn() async throws {
        var env = Self.twilio
        env["LIFESIGNAL_TWILIO_FROM"] = nil
        let run = try await Self.run(
            [
                "serve", "--port", String(try freePort()), "--public-url", "http://lifesignal.example", "--default-channel", "email",
                "--test-clock",
            ],
            environment: env)
        #expect(run.status == 78)
        let lines = Self.lines(run.stderr)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("lifesignal: ") })
        #expect(lines.contains { $0.contains("Twilio is only partly configured: LIFESIGNAL_TWILIO_FROM is missing") })
        #expect(lines.contains { $0.contains("the public URL http://lifesignal.example is not https") })
        #expect(lines.contains { $0.contains("the default channel is email but no email channel is configured") })
        #expect(lines.contains { $0.contains("--test-clock") && $0.contains("--dev") })
    }

    @Test func theTestClockIsRefusedOffLoopbackEvenInDevelopment() async throws {
        let run = try await Self.run(["serve", "--dev", "--test-clock", "--host", "0.0.0.0", "--port", String(try freePort())])
        #expect(run.status == 78)
        #expect(
            Self.lines(run.stderr) == [
                "lifesignal: --dev prints sign-in codes and messages to this terminal and sends no texts: it needs a loopback --host (127.0.0.1, ::1 or localhost), never a public one",
                "lifesignal: --test-clock lets anyone move time and raise false alarms: it needs --dev and a loopback --host (127.0.0.1, ::1 or localhost)",
            ])
        let production = try await Self.run(["serve", "--test-clock", "--port", String(try freePort())], environment: Self.twilio)
        #expect(production.status == 78)
        #expect(production.stderr.contains("--test-clock"))
    }

    @Test func configCheckPrintsTheSettingsWithSecretsMasked() async throws {
        var env = Self.twilio
        env["LIFESIGNAL_PUBLIC_URL"] = "https://lifesignal.example"
        env["LIFESIGNAL_TRUSTED_PROXIES"] = "10.0.0.0/8,::1"
        let run = try await Self.run(["config", "check", "--default-channel", "sms"], environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = Self.lines(run.stdout)
        #expect(lines.contains("mode=production"))
        #expect(lines.contains("twilio.auth_token=****a1b2"))
        #expect(lines.contains("default_channel=sms"))
        #expect(lines.contains("trusted_proxies=10.0.0.0/8,::1/128"))
        #expect(lines.contains("public_url=https://lifesignal.example"))
        #expect(lines.last == "ok")
        #expect(!run.stdout.contains("tw-token-0123456789a1b2"))
    }

    @Test func configCheckFailsOnTheSameProblemsAsServe() async throws {
        let none = try await Self.run(["config", "check"])
        #expect(none.status == 78)
        #expect(none.stdout.contains("mode=production"), "the settings are printed before the problems")
        #expect(
            Self.lines(none.stderr) == [
                "lifesignal: no sign-in code sender is configured: set LIFESIGNAL_TWILIO_ACCOUNT_SID, LIFESIGNAL_TWILIO_AUTH_TOKEN and LIFESIGNAL_TWILIO_FROM, or run with --dev"
            ])
        let dev = try await Self.run(["config", "check", "--public-url", "http://192.168.1.5:8080"], environment: ["LIFESIGNAL_DEV": "1"])
        #expect(dev.status == 0, "\(dev.stderr)")
        #expect(dev.stdout.contains("mode=development"))
        let insecure = try await Self.run(["config", "check", "--public-url", "http://lifesignal.example"], environment: Self.twilio)
        #expect(insecure.status == 78)
        #expect(Self.lines(insecure.stderr).count == 1)
        let badProxies = try await Self.run(["config", "check", "--dev", "--trusted-proxies", "10.0.0.0/99"])
        #expect(badProxies.status != 0)
        #expect(badProxies.stderr.contains("10.0.0.0/99"))
    }

    @Test func configCheckReadsTheSettingsFileUnderTheEnvironment() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(#"{ "dev": 1, "escalation_repeat_minutes": 10, "claim_minutes": 2, "port": 9999 }"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let bad = try await Self.run(["config", "check", "--config", path], environment: ["LIFESIGNAL_PORT": "8123"])
        #expect(bad.status == 78)
        let lines = Self.lines(bad.stdout)
        #expect(lines.contains("mode=development"))
        #expect(lines.contains("port=8123"), "the environment wins over the file")
        #expect(lines.contains("escalation_repeat_minutes=10"))
        #expect(
            Self.lines(bad.stderr) == [
                "lifesignal: LIFESIGNAL_CLAIM_MINUTES is 2: it must be between 5 and 1440 (how long \"I'm on it\" holds)"
            ])
        let good = try await Self.run(
            ["config", "check", "--port", "8124"], environment: ["LIFESIGNAL_CONFIG": path, "LIFESIGNAL_CLAIM_MINUTES": "30"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(Self.lines(good.stdout).contains("port=8124"), "a flag wins over both")
        #expect(Self.lines(good.stdout).contains("claim_minutes=30"))
    }

    /// Production with the fake Twilio: the code goes to the fake, and nothing the server
    /// prints (at trace level) contains it.
    @Test func inProductionACodeReachesTheProviderAndNeverTheLog() async throws {
        let fake = MiniTwilio()
        try await fake.run { base in
            let port = try freePort()
            var env = Self.twilio
            env["LIFESIGNAL_TWILIO_BASE_URL"] = base
            env["LIFESIGNAL_LOG_LEVEL"] = "trace"
            env["LIFESIGNAL_DEFAULT_CHANNEL"] = "sms"
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-prod-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try StartedServer(
                [
                    "serve", "--port", String(port), "--database", directory.appendingPathComponent("prod.sqlite").path,
                    "--public-url", "http://127.0.0.1:\(port)",
                ],
                environment: Self.environment(env), port: port)
            defer { server.terminate() }
            try await server.waitUntilReady()
            for phone in ["+15551230001", "+15550000400"] {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/auth/code")!)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"phone":"\#(phone)"}"#.utf8)
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
            }
            let output = await server.stop()
            #expect(output.contains("production mode"))
            let received = fake.received
            #expect(received.map(\.resource) == ["Messages.json", "Messages.json", "Calls.json"])
            let text = try #require(received.first?.form["Body"])
            let code = try #require(text.firstMatch(of: #/\d{6}/#)).output
            #expect(!output.contains(code), "the code is in the server's output")
            let spoken = (received.last?.form["Twiml"] ?? "").matches(of: #/<Say>(\d)\.</Say>/#).map { String($0.output.1) }
                .joined()
            #expect(spoken.count == 6)
            #expect(!output.contains(spoken))
            #expect(!output.contains("sign-in code for"))
        }
    }

    @Test func inDevelopmentTheCodeIsPrintedLabelledAndTheBannerSaysSo() async throws {
        let port = try freePort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try StartedServer(
            ["serve", "--dev", "--test-clock", "--port", String(port), "--database", directory.appendingPathComponent("dev.sqlite").path],
            environment: Self.environment(["LIFESIGNAL_LOG_LEVEL": "info"]), port: port)
        defer { server.terminate() }
        try await server.waitUntilReady()
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/auth/code")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"phone":"+15551230009"}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let output = await server.stop()
        #expect(output.contains("DEVELOPMENT mode"))
        #expect(output.contains("TEST CLOCK is on"))
        #expect(output.contains(#/\[DEVELOPMENT\] sign-in code for \+15551230009: \d{6}/#))
    }
}

/// `lifesignal serve` running in the background, its output collected as it is written.
final class StartedServer: Sendable {
    let process: Process
    let port: Int
    let output: ChildOutput

    /// `environment` must let info-level logs through (its `LIFESIGNAL_LOG_LEVEL` info or
    /// lower): ``waitUntilReady()`` waits for the line the server logs when it listens.
    init(_ arguments: [String], environment: [String: String], port: Int) throws {
        process = Process()
        process.executableURL = try Person.executable()
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        output = try ChildOutput(pipe)
        try process.run()
        self.port = port
    }

    /// Returns once the server printed that it listens; fails when it exits first.
    func waitUntilReady() async throws {
        let (output, process, port) = (output, process, port)
        let listening = try await withFailureDeadline(seconds: 30, "lifesignal serve did not say it listens on port \(port)") {
            await output.firstLine(where: isListeningLine) != nil
        }
        guard listening else {
            let printed = await output.ended()
            _ = try? await onOwnThread { process.waitUntilExit() }
            throw CLIError("lifesignal serve exited with \(process.terminationStatus):\n\(printed)")
        }
    }

    /// Stops the server (SIGTERM, a graceful shutdown) and returns everything it printed.
    func stop() async -> String {
        terminate()
        let process = process
        _ = try? await onOwnThread { process.waitUntilExit() }
        // The pipe closes when the process exits.
        return await output.ended()
    }

    /// Sends SIGTERM and returns at once (a `defer` cannot await the exit, and a blocking wait
    /// would hold one of the test executor's threads); Foundation reaps the process.
    func terminate() {
        guard process.isRunning else { return }
        process.terminate()
    }
}

/// The smallest Twilio look-alike: records each form; texts to `+15550000400` are refused
/// (error 21614, a landline), everything else is accepted.
final class MiniTwilio: Sendable {
    struct Received: Sendable {
        var resource: String
        var form: [String: String]
    }

    private let requests = Mutex<[Received]>([])
    var received: [Received] { requests.withLock { $0 } }

    func run<R: Sendable>(_ body: (_ baseURL: String) async throws -> R) async throws -> R {
        let router = Router()
        router.post("2010-04-01/Accounts/:account/:resource") { request, context -> Response in
            let form = FormBody.decode(String(buffer: try await request.body.collect(upTo: 1 << 20)))
            let resource = context.parameters.get("resource") ?? ""
            self.requests.withLock { $0.append(Received(resource: resource, form: form)) }
            if resource == "Messages.json" && form["To"] == "+15550000400" {
                return Response(
                    status: .badRequest, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"code":21614,"message":"not a mobile number","status":400}"#)))
            }
            return Response(
                status: .created, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"sid":"SM00000000000000000000000000000001"}"#)))
        }
        return try await withLocalServer(router, label: "mini-twilio") { port in try await body("http://127.0.0.1:\(port)") }
    }
}
