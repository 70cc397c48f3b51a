import Foundation

/// A PostgreSQL server of one test's own (`scripts/postgres.sh` with a state file of its own),
/// so the test can stop it for real — an outage — and start it again, without touching the
/// server the other suites share. Needs PostgreSQL installed (the scripts install it as root).
public final class PrivatePostgres: Sendable {
    /// The product's own settings: a 2-second connect timeout.
    public let url: String
    private let state: String

    public init() throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-pg-\(UUID().uuidString).state").path
        let printed = try Self.script("start", state: state)
        guard let start = printed.range(of: "LIFESIGNAL_TEST_POSTGRES_URL='"),
            let end = printed[start.upperBound...].firstIndex(of: "'")
        else { throw PrivatePostgresError("scripts/postgres.sh printed no URL:\n\(printed)") }
        url = String(printed[start.upperBound..<end]).replacingOccurrences(of: "connect_timeout=10", with: "connect_timeout=2")
    }

    /// Stops the server at once (open connections are cut), keeping its data.
    public func pause() throws { _ = try Self.script("pause", state: state) }
    /// Starts it again on the same port and data.
    public func resume() throws { _ = try Self.script("resume", state: state) }
    /// Stops it and deletes its data.
    public func stop() { _ = try? Self.script("stop", state: state) }

    private static func script(_ command: String, state: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/postgres.sh")
        process.arguments = [command]
        var environment = ProcessInfo.processInfo.environment
        environment["LIFESIGNAL_PG_STATE"] = state
        process.environment = environment
        // A file, not a pipe: the PostgreSQL server the script starts inherits this process's
        // open descriptors, so a pipe's write end would stay open and never reach its end.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-pg-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Reaped here: `waitUntilExit` did not return in the test process although the script
        // had exited (it stayed a zombie).
        let status = Self.reap(process.processIdentifier)
        try? handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw PrivatePostgresError("scripts/postgres.sh \(command) exited with status \(status):\n\(output)")
        }
        return output
    }
}

extension PrivatePostgres {
    /// Waits for the child `pid` and returns its raw wait status (0: exited with 0).
    fileprivate static func reap(_ pid: Int32) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        return status
    }
}

public struct PrivatePostgresError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
