import AsyncHTTPClient
import Foundation
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalStore
import NIOCore
import Synchronization

/// A `lifesignal` child process serving HTTP for the benchmarks (`serve`, or the bare
/// server of `bench http-floor`).
final class BenchServer: Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    /// `lifesignal serve` on `database`.
    static func start(database: String, port: Int) throws -> BenchServer {
        try start(["serve", "--dev", "--port", String(port), "--database", database], port: port)
    }

    /// This executable with `arguments`, answering `/health` on `port` once ready.
    ///
    /// `LIFESIGNAL_BENCH_SERVER_WRAPPER` (say `valgrind --tool=massif`) runs the child under
    /// that command, to profile it; its memory figures are then the wrapper's.
    static func start(_ arguments: [String], port: Int) throws -> BenchServer {
        let process = Process()
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        if let wrapper = ProcessInfo.processInfo.environment["LIFESIGNAL_BENCH_SERVER_WRAPPER"], !wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = wrapper.split(separator: " ").map(String.init) + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["LIFESIGNAL_LOG_LEVEL"] = "warning"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return BenchServer(process: process, port: port)
    }

    func waitUntilReady() async throws {
        let client = HTTPClient.shared
        for _ in 0..<300 {
            if let response = try? await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/health"), timeout: .seconds(1)),
                response.status == .ok
            {
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchError("the server on port \(port) did not become ready")
    }

    /// The child's peak resident memory (VmHWM), in MB.
    func peakRSSMegabytes() -> Double { statusMegabytes("VmHWM:") }

    /// The child's resident memory now (VmRSS), in MB.
    func residentMegabytes() -> Double { statusMegabytes("VmRSS:") }

    /// A memory line of `/proc/<pid>/status` ("VmRSS:   1234 kB"), in MB; 0 when unreadable.
    private func statusMegabytes(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb / 1024
    }

    /// CPU seconds the child has used so far (user + system, from `/proc/<pid>/stat`).
    func cpuSeconds() -> Double { Self.cpuSeconds(pid: process.processIdentifier) }

    /// CPU seconds process `pid` has used so far; 0 when it is not on this machine (or gone).
    static func cpuSeconds(pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct LoadResult {
    var count: Int
    var errors: Int
    var rps: Double
    var p50: Double
    var p99: Double
}

/// How the figures of one run extend beyond this machine, assuming check-ins stay bound by
/// the server's CPU (which `busy_cores` checks: near the machine's cores means CPU is what
/// saturated). On SQLite the single writer serializes commits, so more cores help only until
/// the writer is busy all the time; on PostgreSQL several instances share the database, whose
/// own CPU per check-in is not in `server_cpu_ms_per_checkin`.
struct CapacityModel {
    var serverCPUMsPerCheckIn: Double
    var measuredRPS: Double
    var cores = ProcessInfo.processInfo.activeProcessorCount

    /// Check-ins per second `cores` cores of server CPU can carry.
    func predictedRPS(cores: Int) -> Double {
        serverCPUMsPerCheckIn > 0 ? Double(cores) * 1000 / serverCPUMsPerCheckIn : 0
    }

    var summary: String {
        String(
            format: "capacity: cores=%d busy_cores=%.2f cpu_bound_rps_2=%.0f cpu_bound_rps_8=%.0f cpu_bound_rps_32=%.0f",
            cores, measuredRPS * serverCPUMsPerCheckIn / 1000, predictedRPS(cores: 2), predictedRPS(cores: 8),
            predictedRPS(cores: 32))
    }
}

/// The people the benchmarks seed: onboarded, due in a day, each with a session for `token`.
enum BenchPeople {
    static func insert(index i: Int, id: UserID, token: String, now: Date, tx: StoreTransaction) async throws {
        let user = User(
            id: id, phone: String(format: "+1555%07d", i), firstName: "Bench", lastName: "User",
            createdAt: now, contactCode: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
            isOnboarded: true)
        try await tx.people.insert(user, deadline: now.addingTimeInterval(86400), nextActionAt: now.addingTimeInterval(84600))
        try await tx.sessions.insert(
            Session(id: SessionID(UUID()), userID: user.id, kind: .session, name: "bench", createdAt: now, lastUsedAt: now),
            tokenHash: Accounts.tokenHash(token))
    }
}
