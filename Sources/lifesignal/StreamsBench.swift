import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Opens many live event streams (`GET /v1/events`, one per person, as every responder with
/// the page or app open holds one) against a `lifesignal serve` child and measures what they
/// cost: the server's resident memory per open stream, and how long `/health` and a
/// check-in take while they are open.
struct StreamsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streams", abstract: "Memory per open live event stream, and latency with them open.")

    @Option(parsing: .upToNextOption, help: "Open streams to measure at, cumulatively.") var streams: [Int] = [2000, 10000]
    @Option(help: "First port to use.") var port = 18280

    func run() async throws {
        let total = streams.max() ?? 0
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("streams.sqlite").path
        print("seeding \(total + 1) users…")
        let tokens = try await CheckInBench.seed(users: total + 1, database: url)
        let server = try BenchServer.start(database: url, port: port)
        defer { server.stop() }
        try await server.waitUntilReady()
        let group = MultiThreadedEventLoopGroup.singleton

        let baseline = server.residentMegabytes()
        var open: [Channel] = []
        var summary = ""
        for target in streams.sorted() {
            while open.count < target {
                open.append(try await StreamConnection.open(port: port, token: tokens[open.count + 1], group: group))
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
            let line = String(
                format: "streams=%d rss_mb=%.0f added_mb=%.0f kb_per_stream=%.1f health_ms=%.2f check_in_ms=%.2f",
                target, rss, rss - baseline, perStream, health, checkIn)
            print(line)
            summary = line
        }
        print("streams: " + summary)
        for channel in open { channel.close(promise: nil) }
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

/// One open event stream: the request is sent, the `200` headers awaited, and the rest of the
/// stream (events, keep-alives) read and dropped.
final class StreamConnection: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let token: String
    private let answered: EventLoopPromise<Void>
    private let seen = Mutex(false)

    init(token: String, answered: EventLoopPromise<Void>) {
        self.token = token
        self.answered = answered
    }

    static func open(port: Int, token: String, group: any EventLoopGroup) async throws -> Channel {
        let promise = group.next().makePromise(of: Void.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(StreamConnection(token: token, answered: promise))
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
        let first = seen.withLock { seen in
            defer { seen = true }; return !seen
        }
        guard first else { return }
        let head = String(buffer: unwrapInboundIn(data))
        if head.hasPrefix("HTTP/1.1 200") {
            answered.succeed()
        } else {
            answered.fail(BenchError("the stream was refused: \(head.prefix(80))"))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answered.fail(error)
        context.close(promise: nil)
    }
}
