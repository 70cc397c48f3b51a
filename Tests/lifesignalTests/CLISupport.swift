import Foundation
import LifeSignalTestSupport
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalServer
import LifeSignalStore
import Logging
import Synchronization
import Testing

/// A server on a real socket, over a temporary SQLite file, with SMS codes captured, and a
/// way to run the built `lifesignal` executable against it as a person would.
final class CLIWorld: Sendable, CoreUseCases {
    let directory: URL
    let core: ServiceCore
    let clock = ManualClock(ISODate.parse("2026-11-21T08:00:00Z")!)
    let codes = SentCodes()

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try await Store.open(directory.appendingPathComponent("cli.sqlite").path)
        var environment = ServiceEnvironment.live(logger: Logger(label: "cli-test"))
        let clock = self.clock
        environment.now = { clock.now }
        let codes = self.codes
        core = ServiceCore(
            store: store, environment: environment,
            codeSender: SignInCodeSender { phone, code in codes.record(phone, code) })
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func serve(_ body: @Sendable (URL) async throws -> Void) async throws {
        let app = Application(
            router: buildRouter(core: core, clock: clock),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
    }

    func code(for phone: String) -> String? { codes.code(for: phone) }

    /// Waits until the server sent a code to `phone` (returns at once if it did already).
    func waitForCode(_ phone: String) async throws -> String {
        let codes = self.codes
        return try await withFailureDeadline(seconds: 10, "no code was sent to \(phone)") { try await codes.next(for: phone) }
    }

    /// A person at a terminal: their own HOME and config directory.
    func person(_ name: String, server: URL) throws -> Person {
        let home = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return Person(home: home, server: server)
    }
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct Run: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    func json<T: Decodable>(_: T.Type = T.self) throws -> T {
        try APICoding.decoder.decode(T.self, from: Data(stdout.utf8))
    }
}

struct Person: Sendable {
    let home: URL
    let server: URL
    /// More environment for every run (`LIFESIGNAL_TOKEN` for a script).
    var extraEnvironment: [String: String] = [:]

    var configDirectory: URL { home.appendingPathComponent("config/lifesignal") }
    var tokenFile: URL { configDirectory.appendingPathComponent("token") }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env["LIFESIGNAL_SERVER"] = server.absoluteString
        env.merge(extraEnvironment) { _, extra in extra }
        return env
    }

    /// Runs `lifesignal <arguments>`; `input` lines are written to stdin as they are produced.
    func run(_ arguments: String..., input: AsyncStream<String>? = nil) async throws -> Run {
        try await run(arguments, input: input)
    }

    func run(_ arguments: [String], input: AsyncStream<String>? = nil) async throws -> Run {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let finished = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            finished.continuation.yield(process.terminationStatus)
            finished.continuation.finish()
        }
        try process.run()
        // Read both pipes as the process writes, so a full pipe can never stall it. On
        // threads of their own: blocking reads on the (2-thread) cooperative pool would
        // starve the server this process is running.
        let out = Self.readToEnd(stdout)
        let err = Self.readToEnd(stderr)
        if let input {
            // A process that already exited makes the write fail: its output tells why.
            for await line in input { try? stdin.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }
        }
        try? stdin.fileHandleForWriting.close()
        var status: Int32 = -1
        for await code in finished.stream { status = code }
        return Run(
            status: status, stdout: String(decoding: await out.value, as: UTF8.self),
            stderr: String(decoding: await err.value, as: UTF8.self))
    }

    private static func readToEnd(_ pipe: Pipe) -> Task<Data, Never> {
        let handle = pipe.fileHandleForReading
        return Task {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
            }
        }
    }

    /// The `lifesignal` built next to this test bundle.
    static func executable() throws -> URL {
        var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for directory in candidates {
            let url = directory.appendingPathComponent("lifesignal")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: url.path)
            {
                return url
            }
        }
        throw CLIError("lifesignal was not found next to the tests in \(candidates.map(\.path))")
    }

    /// Signs in with the two-step script form and sets a name (the CLI has no profile editor).
    func signUp(_ world: CLIWorld, phone: String, firstName: String) async throws {
        let sent = try await run("sign-in", "--phone", phone, "--send-code")
        #expect(sent.status == 0, "\(sent.stderr)")
        let code = try #require(world.code(for: phone))
        let signedIn = try await run("sign-in", "--phone", phone, "--code", code)
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        let token = try String(contentsOf: tokenFile, encoding: .utf8)
        let caller = try await world.accounts.authenticate(token: token)
        _ = try await world.profiles.updateProfile(caller, ProfileChanges(firstName: firstName, lastName: "Tester"))
    }
}

/// The SMS codes the server sent, by phone number; a test can wait for one to be sent.
final class SentCodes: Sendable {
    private struct State {
        var codes: [String: String] = [:]
        var waiters: [UInt64: (phone: String, continuation: CheckedContinuation<String, any Error>)] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    func record(_ phone: String, _ code: String) {
        let woken = state.withLock { state in
            state.codes[phone] = code
            let woken = state.waiters.filter { $0.value.phone == phone }
            for id in woken.keys { state.waiters.removeValue(forKey: id) }
            return woken.values.map(\.continuation)
        }
        for waiter in woken { waiter.resume(returning: code) }
    }

    func code(for phone: String) -> String? { state.withLock { $0.codes[phone] } }

    /// The code sent to `phone`: at once if one was, else once one is. Throws
    /// `CancellationError` when the waiting task is cancelled.
    func next(for phone: String) async throws -> String {
        let id = state.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                let now = state.withLock { state -> Result<String, any Error>? in
                    if let code = state.codes[phone] { return .success(code) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = (phone, continuation)
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
