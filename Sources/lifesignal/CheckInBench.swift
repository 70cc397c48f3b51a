import ArgumentParser
import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalStore
import NIOCore
import Synchronization

/// Seeds users on a fresh database, starts `lifesignal serve` as a child process, drives
/// authenticated check-ins over real HTTP at several concurrency levels and reports
/// throughput, latency and the server's peak memory.
struct CheckInBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-ins", abstract: "Check-in throughput and latency over HTTP.")

    @Option(help: "Users to seed.") var users = 10_000
    @Option(help: "Seconds to run each concurrency level.") var seconds = 5.0
    @Option(parsing: .upToNextOption, help: "Concurrent connections to measure.") var concurrency: [Int] = [1, 16, 64]
    @Option(help: "Database: a SQLite file (default: a fresh temporary one) or a postgres:// URL.") var database: String?
    @Option(help: "Server instances sharing the database (PostgreSQL).") var instances = 1
    @Option(help: "First port to use.") var port = 18080
    @Flag(help: "Also measure the HTTP floor (the same route with nothing behind it) in this run, and print the ratio.")
    var withFloor = false

    func run() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = database ?? dir.appendingPathComponent("bench.sqlite").path
        print("seeding \(users) users into \(url.hasPrefix("postgres") ? "PostgreSQL" : "SQLite")…")
        let tokens = try await Self.seed(users: users, database: url)

        let servers = try (0..<instances).map { try BenchServer.start(database: url, port: port + $0) }
        defer { servers.forEach { $0.stop() } }
        for server in servers { try await server.waitUntilReady() }

        let rss = { servers.map { $0.peakRSSMegabytes() }.max() ?? 0 }
        // A local PostgreSQL's own CPU (backends, WAL writer…), which the servers' figure leaves out.
        var database: DatabaseCPU?
        if url.hasPrefix("postgres") { database = try await DatabaseCPU(url: url) }
        let databaseBefore = try await database?.seconds()
        let cpuBefore = servers.map { $0.cpuSeconds() }.reduce(0, +)
        let results = try await CheckInLoad.levels(
            concurrency, ports: servers.map(\.port), tokens: tokens, seconds: seconds, rssMegabytes: rss)
        let serverCPU = servers.map { $0.cpuSeconds() }.reduce(0, +) - cpuBefore
        let databaseCPU = try await database?.seconds(since: databaseBefore ?? [:])
        await database?.close()
        let peakRSS = rss()
        servers.forEach { $0.stop() }
        guard let last = results.last else { return }
        // Server CPU per check-in over every level run (the database's own CPU is inside it on
        // SQLite; on PostgreSQL it is the postgres processes', not measured here).
        let total = Double(results.map(\.count).reduce(0, +))
        let cpuMs = total > 0 ? serverCPU * 1000 / total : 0
        var summary = String(
            format: "check-ins: rps=%.0f p50_ms=%.2f p99_ms=%.2f rss_mb=%.0f server_cpu_ms_per_checkin=%.3f",
            last.rps, last.p50, last.p99, peakRSS, cpuMs)
        if let databaseCPU, total > 0 {
            summary += String(format: " db_cpu_ms_per_checkin=%.3f", databaseCPU * 1000 / total)
        }
        if withFloor {
            let floorPort = port + instances + 100
            let floor = try BenchServer.start(["bench", "http-floor", "--serve-only", "--port", String(floorPort)], port: floorPort)
            defer { floor.stop() }
            try await floor.waitUntilReady()
            let floorCPUBefore = floor.cpuSeconds()
            print("http floor, same run:")
            let floorResults = try await CheckInLoad.levels(
                concurrency, ports: [floorPort], tokens: tokens, seconds: seconds, rssMegabytes: floor.peakRSSMegabytes)
            guard let bare = floorResults.last else { return }
            let floorRequests = Double(floorResults.map(\.count).reduce(0, +))
            let floorCPUMs = floorRequests > 0 ? (floor.cpuSeconds() - floorCPUBefore) * 1000 / floorRequests : 0
            summary += String(
                format: " floor_rps=%.0f floor_p99_ms=%.2f floor_cpu_ms_per_request=%.3f ratio=%.2f",
                bare.rps, bare.p99, floorCPUMs, bare.rps > 0 ? last.rps / bare.rps : 0)
        }
        print(summary)
        print(CapacityModel(serverCPUMsPerCheckIn: cpuMs, measuredRPS: last.rps).summary)
    }

    /// Creates users and one session each straight through the store, in large transactions.
    static func seed(users: Int, database: String) async throws -> [String] {
        let store = try await Store.open(database)
        let now = Date()
        var tokens: [String] = []
        tokens.reserveCapacity(users)
        for chunk in stride(from: 0, to: users, by: 1000) {
            let batch = (chunk..<min(chunk + 1000, users)).map { i in
                (i, "ls_bench_\(i)_\(UUID().uuidString)")
            }
            tokens += batch.map(\.1)
            try await store.write { tx in
                for (i, token) in batch {
                    try await BenchPeople.insert(index: i, id: UserID(UUID()), token: token, now: now, tx: tx)
                }
            }
        }
        await store.close()
        return tokens
    }
}

/// CPU used by the processes of a PostgreSQL server on this machine, read from `/proc` for every
/// process `pg_stat_activity` lists (client backends and the background ones). A process that
/// starts during a run counts from zero; one that ends during it is lost (rare: the pool keeps
/// its connections). Zero when the server runs elsewhere.
struct DatabaseCPU {
    let store: Store

    init(url: String) async throws {
        store = try await Store.open(url)
    }

    /// CPU seconds so far, by process.
    func seconds() async throws -> [Int: Double] {
        let pids = try await store.serverProcessIDs()
        var seconds: [Int: Double] = [:]
        for pid in pids { seconds[pid] = BenchServer.cpuSeconds(pid: Int32(pid)) }
        return seconds
    }

    /// CPU seconds used since `before`.
    func seconds(since before: [Int: Double]) async throws -> Double {
        try await seconds().reduce(0) { sum, entry in sum + max(0, entry.value - (before[entry.key] ?? 0)) }
    }

    func close() async { await store.close() }
}
