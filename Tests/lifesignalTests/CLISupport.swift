import Foundation
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// What only the CLI tests add to the one world (`TestWorld`, served on a socket): people at
/// a terminal running the built `lifesignal` executable against it.
extension TestWorld {
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

    /// Runs the built `lifesignal` to its end with `environment` (in `directory`, when given);
    /// `input` lines are written to its stdin as they are produced.
    static func lifesignal(
        _ arguments: [String], environment: [String: String], in directory: URL? = nil, input: AsyncStream<String>? = nil
    ) async throws -> Run {
        let process = Process()
        process.executableURL = try Person.executable()
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
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
        let out = readToEnd(stdout)
        let err = readToEnd(stderr)
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

    /// Reads `pipe` to its end on a thread of its own.
    static func readToEnd(_ pipe: Pipe) -> Task<Data, Never> {
        let handle = pipe.fileHandleForReading
        return Task {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
            }
        }
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
        try await Run.lifesignal(arguments, environment: environment, input: input)
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
    func signUp(_ world: TestWorld, phone: String, firstName: String) async throws {
        let sent = try await run("sign-in", "--phone", phone, "--send-code")
        #expect(sent.status == 0, "\(sent.stderr)")
        let code = try #require(world.code(for: phone))
        let signedIn = try await run("sign-in", "--phone", phone, "--code", code)
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        let token = try String(contentsOf: tokenFile, encoding: .utf8)
        let caller = try await world.accounts.authenticate(token: token).caller()
        _ = try await world.profiles.updateProfile(caller, ProfileChanges(firstName: firstName, lastName: "Tester"))
    }
}
