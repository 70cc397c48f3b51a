import ArgumentParser
import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalStore
import NIOCore
import NIOPosix
import Synchronization

/// Opens many live event streams (`GET /v1/events`, one per person, as every responder with
/// the page or app open holds one) against a `lifesignal serve` child and measures what they
/// cost: the server's resident memory per open stream, how long `/health` and a check-in
/// take while they are open, and the fan-out: how long after one person watched by every
/// stream's holder checks in each open stream has read the new status.
struct StreamsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams", abstract: "Memory per open live event stream, and latency with them open.")

    @Option(parsing: .upToNextOption, help: "Open streams to measure at, cumulatively.") var streams: [Int] = [2000, 10000]
    @Option(help: "First port to use.") var port = 18280
    @Option(help: "Check-ins by the watched person at each count; every stream's arrival is one fan-out sample.")
    var fanouts = 3
    @Option(help: "Seconds to keep the streams open after the last count (to attach a profiler to the server).")
    var hold = 0.0

    func run() async throws {
        let total = streams.max() ?? 0
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("streams.sqlite").path
        print("seeding \(total + 2) users…")
        // tokens[0] checks in for `check_in_ms` (nobody watches them); tokens[1...total] hold
        // the streams, each a responder of the watched person, tokens[total + 1].
        let (tokens, watched) = try await Self.seed(streams: total, database: url)
        let server = try BenchServer.start(database: url, port: port)
        defer { server.stop() }
        try await server.waitUntilReady()
        let group = MultiThreadedEventLoopGroup.singleton
        let fanOut = FanOutRecorder(marker: watched.uuidString.lowercased())

        let baseline = server.residentMegabytes()
        var open: [any NIOCore.Channel] = []
        var summary = ""
        for target in streams.sorted() {
            while open.count < target {
                open.append(
                    try await StreamConnection.open(port: port, token: tokens[open.count + 1], fanOut: fanOut, group: group))
            }
            // Each stream answered its headers before `open` returned.
            let rss = server.residentMegabytes()
            let perStream = target > 0 ? (rss - baseline) * 1024 / Double(target) : 0
            let health = try await Self.timed(5) { try await Self.request(port: port, "GET /health HTTP/1.1\r\nHost: bench\r\n\r\n") }
            let checkIn = try await Self.timed(5) {
                let body = #"{"id":"\#(UUID().uuidString.lowercased())"}"#
                try await Self.request(
                    port: port,
                    "POST /v1/check-ins HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer \(tokens[0])\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            }
            // The CPU each side spends on one event's fan-out: the server's writes against this
            // process's reads and parsing, which share the same cores and so the latency.
            let cpuBefore = (server: server.cpuSeconds(), bench: BenchServer.cpuSeconds(pid: getpid()))
            let fanOutMs = try await Self.fanOut(fanouts, streams: target, port: port, token: tokens[total + 1], recorder: fanOut)
            let perEvent = Double(max(1, fanouts)) / 1000
            let serverCPU = (server.cpuSeconds() - cpuBefore.server) / perEvent
            let benchCPU = (BenchServer.cpuSeconds(pid: getpid()) - cpuBefore.bench) / perEvent
            let line = String(
                format: "streams=%d rss_mb=%.0f added_mb=%.0f kb_per_stream=%.1f health_ms=%.2f check_in_ms=%.2f"
                    + " fanout_p50_ms=%.1f fanout_p99_ms=%.1f fanout_missed=%d"
                    + " fanout_server_cpu_ms=%.0f fanout_bench_cpu_ms=%.0f",
                target, rss, rss - baseline, perStream, health, checkIn, fanOutMs.p50, fanOutMs.p99, fanOutMs.missed,
                serverCPU, benchCPU)
            print(line)
            summary = line
        }
        print("streams: " + summary)
        if hold > 0 {
            print("holding \(open.count) streams open for \(hold) s (server pid \(server.process.processIdentifier))")
            try await Task.sleep(for: .seconds(hold))
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// `rounds` check-ins by the watched person, one after another: each round waits (10 s at
    /// most) until every one of the `streams` open streams has read the new status. The times
    /// run from sending the check-in to a stream's client reading the event's last byte.
    static func fanOut(
        _ rounds: Int, streams: Int, port: Int, token: String, recorder: FanOutRecorder
    ) async throws -> (p50: Double, p99: Double, missed: Int) {
        var samples: [Double] = []
        var missed = 0
        for _ in 0..<rounds {
            let body = #"{"id":"\#(UUID().uuidString.lowercased())"}"#
            recorder.start(expecting: streams)
            try await request(
                port: port,
                "POST /v1/check-ins HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            let deadline = ContinuousClock.now + .seconds(10)
            while recorder.count < streams && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            let round = recorder.finish()
            samples += round
            missed += streams - round.count
        }
        guard !samples.isEmpty else { return (0, 0, missed) }
        samples.sort()
        let at = { (q: Double) in samples[min(samples.count - 1, Int(q * Double(samples.count)))] }
        return (at(0.5), at(0.99), missed)
    }

    /// `streams + 2` people, each with a session (their tokens, in order): the first checks in
    /// for `check_in_ms`, the next `streams` hold the streams and are all responders of the
    /// last, the watched person (its id returned), whose check-ins fan out to every stream.
    static func seed(streams: Int, database: String) async throws -> (tokens: [String], watched: UUID) {
        let store = try await Store.open(database)
        let now = Date()
        let users = streams + 2
        var tokens: [String] = []
        var ids: [UserID] = []
        for chunk in stride(from: 0, to: users, by: 1000) {
            let batch = (chunk..<min(chunk + 1000, users)).map { i in
                (i, UserID(UUID()), "ls_bench_\(i)_\(UUID().uuidString)")
            }
            tokens += batch.map(\.2)
            ids += batch.map(\.1)
            try await store.write { tx in
                for (i, id, token) in batch {
                    try await BenchPeople.insert(index: i, id: id, token: token, now: now, tx: tx)
                }
            }
        }
        let watched = ids[users - 1]
        for chunk in stride(from: 1, through: streams, by: 1000) {
            let responders = ids[chunk..<min(chunk + 1000, streams + 1)]
            try await store.write { tx in
                for responder in responders {
                    try await tx.links.insert(LinkRecord(userID: watched, contactID: responder, roles: .responder, addedAt: now))
                }
            }
        }
        await store.close()
        return (tokens, watched.rawValue)
    }

    /// The median of `times` runs of `body`, in milliseconds.
    static func timed(_ times: Int, _ body: () async throws -> Void) async throws -> Double {
        var samples: [Double] = []
        for _ in 0..<times {
            let start = ContinuousClock.now
            try await body()
            samples.append(Double((ContinuousClock.now - start) / .microseconds(1)) / 1000)
        }
        return samples.sorted()[samples.count / 2]
    }

    /// One request on a fresh connection; returns when the status line has arrived.
    static func request(port: Int, _ text: String) async throws {
        let socket = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await socket.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: text))
            var received = ""
            for try await chunk in inbound {
                received += String(buffer: chunk)
                if received.contains("\r\n") { break }
            }
            guard received.hasPrefix("HTTP/1.1 2") else { throw BenchError("unexpected answer: \(received.prefix(80))") }
        }
    }
}

/// The arrivals of one fan-out round: the watched person's new status, read by each stream.
final class FanOutRecorder: Sendable {
    /// The watched person's id, as the status event's data spells it.
    let marker: String
    private let state = Mutex<(start: ContinuousClock.Instant, samples: [Double])>((.now, []))

    init(marker: String) { self.marker = marker }

    /// Starts a round now (before the check-in is sent).
    func start(expecting count: Int) {
        state.withLock { state in
            state = (.now, [])
            state.samples.reserveCapacity(count)
        }
    }

    /// One stream read the event.
    func arrived() {
        let now = ContinuousClock.now
        state.withLock { $0.samples.append(Double(($0.start.duration(to: now)) / .microseconds(1)) / 1000) }
    }

    var count: Int { state.withLock { $0.samples.count } }

    /// The round's times (ms), in order of arrival; the recorder then waits for the next round.
    func finish() -> [Double] {
        state.withLock { state in
            defer { state.samples = [] }
            return state.samples
        }
    }
}

/// One open event stream: the request is sent, the `200` headers awaited, and the rest of the
/// stream read: each event the watched person's check-in sends is counted in `fanOut`, once its
/// last byte (the blank line that ends an SSE event) has arrived; keep-alives are read and dropped.
final class StreamConnection: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let token: String
    private let answered: EventLoopPromise<Void>
    private let fanOut: FanOutRecorder
    /// Whether the status line was seen, and the text read since the last complete event.
    private let read = Mutex((seen: false, pending: ""))

    init(token: String, answered: EventLoopPromise<Void>, fanOut: FanOutRecorder) {
        self.token = token
        self.answered = answered
        self.fanOut = fanOut
    }

    static func open(port: Int, token: String, fanOut: FanOutRecorder, group: any EventLoopGroup) async throws -> any NIOCore.Channel {
        let promise = group.next().makePromise(of: Void.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(StreamConnection(token: token, answered: promise, fanOut: fanOut))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await promise.futureResult.get()
        return channel
    }

    func channelActive(context: ChannelHandlerContext) {
        let request = "GET /v1/events HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n"
        context.writeAndFlush(NIOAny(ByteBuffer(string: request)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let text = String(buffer: unwrapInboundIn(data))
        // The body is chunked: chunk-size lines sit between events, never inside one (the
        // server writes each event as one chunk), so splitting on the blank line is enough.
        let (first, events) = read.withLock { read -> (Bool, [Substring]) in
            let first = !read.seen
            read.seen = true
            read.pending += text
            guard read.pending.contains("\n\n") else { return (first, []) }
            var events = read.pending.split(separator: "\n\n", omittingEmptySubsequences: false)
            read.pending = String(events.removeLast())
            return (first, events)
        }
        if first {
            if text.hasPrefix("HTTP/1.1 200") {
                answered.succeed()
            } else {
                answered.fail(BenchError("the stream was refused: \(text.prefix(80))"))
            }
        }
        for event in events where event.contains("event: status") && event.contains(fanOut.marker) {
            fanOut.arrived()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answered.fail(error)
        context.close(promise: nil)
    }
}
