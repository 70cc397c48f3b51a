import AsyncHTTPClient
import Foundation
import LifeSignalAPI
import LifeSignalModels
import NIOCore
import Synchronization

/// A `lifesignal serve` child process used by the benchmarks.
final class BenchServer: Sendable {
    let process: Process
    let port: Int

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    static func start(database: String, port: Int, extraArguments: [String] = []) throws -> BenchServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["serve", "--port", String(port), "--database", database] + extraArguments
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

/// Runs `concurrency` closed-loop workers for a bounded time, each sending check-ins for
/// users picked round-robin, and collects every latency.
struct LoadRun {
    let client: HTTPClient
    let ports: [Int]
    let tokens: [String]
    let concurrency: Int
    let seconds: Double

    func run() async throws -> LoadResult {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let started = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: ([Double], Int).self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var latencies: [Double] = []
                    var errors = 0
                    var i = worker
                    while ContinuousClock.now < deadline {
                        let token = tokens[i % tokens.count]
                        let port = ports[i % ports.count]
                        i += concurrency
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/check-ins")
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(token)")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: "{\"id\":\"\(UUID().uuidString.lowercased())\"}"))
                        let t0 = ContinuousClock.now
                        do {
                            let response = try await client.execute(request, timeout: .seconds(10))
                            _ = try await response.body.collect(upTo: 1 << 20)
                            if response.status != .created { errors += 1 }
                        } catch {
                            errors += 1
                        }
                        latencies.append(Double((ContinuousClock.now - t0) / .microseconds(1)) / 1000)
                    }
                    return (latencies, errors)
                }
            }
            var all: [([Double], Int)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let elapsed = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
        let latencies = results.flatMap(\.0).sorted()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        return LoadResult(
            count: latencies.count, errors: results.map(\.1).reduce(0, +), rps: Double(latencies.count) / elapsed,
            p50: percentile(0.5), p99: percentile(0.99))
    }
}
