import Foundation

/// A PostgreSQL server of one test's own (`scripts/postgres.sh` with a state file of its own),
/// so the test can stop it for real — an outage — and start it again, without touching the
/// server the other suites share. Needs PostgreSQL installed (the scripts install it as root).
public final class PrivatePostgres: Sendable {
    /// With a 10-second connect timeout, as for the shared test server: a loaded test run can
    /// take longer than 2 s to open a connection. (A stopped server refuses at once.)
    public let url: String
    private let state: String

    public init() async throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-pg-\(UUID().uuidString).state").path
        let printed = try await Self.script("start", state: state)
        guard let start = printed.range(of: "LIFESIGNAL_TEST_POSTGRES_URL='"),
            let end = printed[start.upperBound...].firstIndex(of: "'")
        else { throw PrivatePostgresError("scripts/postgres.sh printed no URL:\n\(printed)") }
        url = String(printed[start.upperBound..<end])
    }

    /// Runs `body` with a server of its own, stopped and deleted afterwards, also when `body` throws.
    public static func with<R: Sendable>(_ body: (PrivatePostgres) async throws -> R) async throws -> R {
        let postgres = try await PrivatePostgres()
        do {
            let result = try await body(postgres)
            await postgres.stop()
            return result
        } catch {
            await postgres.stop()
            throw error
        }
    }

    /// Stops the server at once (open connections are cut), keeping its data.
    public func pause() async throws { _ = try await Self.script("pause", state: state) }
    /// Starts it again on the same port and data.
    public func resume() async throws { _ = try await Self.script("resume", state: state) }
    /// Stops it and deletes its data.
    public func stop() async { _ = try? await Self.script("stop", state: state) }

    private static func script(_ command: String, state: String) async throws -> String {
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
        let status = await Self.reap(process.processIdentifier)
        try? handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw PrivatePostgresError("scripts/postgres.sh \(command) exited with status \(status):\n\(output)")
        }
        return output
    }
}

extension PrivatePostgres {
    /// Waits for the child `pid` and returns its raw wait status (0: exited with 0), on a
    /// thread of its own: a blocking wait must not hold one of the few threads every test
    /// of the run shares.
    fileprivate static func reap(_ pid: Int32) async -> Int32 {
        await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 {
                    guard errno == EINTR else {
                        done.resume(returning: -1)
                        return
                    }
                }
                done.resume(returning: status)
            }
        }
    }
}

public struct PrivatePostgresError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
