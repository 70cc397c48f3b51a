import AsyncHTTPClient
import Foundation
import LifeSignalAPI
import LifeSignalModels
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
    static func start(_ arguments: [String], port: Int) throws -> BenchServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = arguments
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
    func peakRSSMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kb / 1024
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

