import Foundation
import NIOCore
import NIOPosix

/// A closed-loop HTTP/1.1 load generator on one event-loop thread, for `bench check-ins`.
///
/// Each connection sends an authenticated check-in, reads the whole response, and sends the
/// next, until the deadline. Requests are written as bytes and responses read only as far as
/// the status line and the body's length, so the generator takes a small share of the two
/// cores it shares with the server (a general-purpose client took about a third of them).
struct CheckInLoad {
    let ports: [Int]
    let tokens: [String]
    let concurrency: Int
    let seconds: Double

    /// Runs each concurrency level in turn, printing a line for each with the server's peak
    /// memory (`rssMegabytes`), and returns the last level's result.
    static func levels(
        _ levels: [Int], ports: [Int], tokens: [String], seconds: Double, rssMegabytes: () -> Double
    ) async throws -> [LoadResult] {
        var results: [LoadResult] = []
        for level in levels {
            let result = try await CheckInLoad(ports: ports, tokens: tokens, concurrency: level, seconds: seconds).run()
            print(
                String(
                    format: "concurrency=%-3d requests=%-7d errors=%-4d rps=%8.0f p50_ms=%6.2f p99_ms=%6.2f rss_mb=%.0f",
                    level, result.count, result.errors, result.rps, result.p50, result.p99, rssMegabytes()))
            results.append(result)
        }
        return results
    }

    func run() async throws -> LoadResult {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let result = try await run(on: group)
            try await group.shutdownGracefully()
            return result
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private func run(on group: MultiThreadedEventLoopGroup) async throws -> LoadResult {
        let deadline = NIODeadline.now() + .milliseconds(Int64(seconds * 1000))
        let started = ContinuousClock.now
        var connections: [EventLoopFuture<CheckInConnection.Tally>] = []
        for index in 0..<concurrency {
            let promise = group.next().makePromise(of: CheckInConnection.Tally.self)
            let port = ports[index % ports.count]
            // Each connection takes every `concurrency`-th person, starting at its own index.
            let mine = Swift.stride(from: index, to: tokens.count, by: concurrency).map { tokens[$0] }
            let bootstrap = ClientBootstrap(group: group)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            CheckInConnection(port: port, tokens: mine, deadline: deadline, done: promise))
                    }
                }
            do {
                _ = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
            } catch {
                promise.fail(error)
            }
            connections.append(promise.futureResult)
        }
        var latencies: [Double] = []
        var errors = 0
        for connection in connections {
            let tally = try await connection.get()
            latencies += tally.latencies
            errors += tally.errors
        }
        let elapsed = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        return LoadResult(
            count: latencies.count, errors: errors, rps: Double(latencies.count) / elapsed,
            p50: percentile(0.5), p99: percentile(0.99))
    }
}

/// One keep-alive connection's loop: send, read the full response, send again.
final class CheckInConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Tally: Sendable {
        var latencies: [Double] = []
        var errors = 0
    }

    private let host: String
    private let tokens: [String]
    private let deadline: NIODeadline
    private let done: EventLoopPromise<Tally>
    private var next = 0
    private var sentAt = NIODeadline.now()
    private var received: ByteBuffer?
    private var tally = Tally()
    private var finished = false

    init(port: Int, tokens: [String], deadline: NIODeadline, done: EventLoopPromise<Tally>) {
        self.host = "127.0.0.1:\(port)"
        self.tokens = tokens
        self.deadline = deadline
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) { send(context) }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if received == nil { received = incoming } else { received!.writeBuffer(&incoming) }
        while let status = takeResponse() {
            tally.latencies.append(Double((NIODeadline.now() - sentAt).nanoseconds) / 1_000_000)
            if status != 201 { tally.errors += 1 }
            send(context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) { finish() }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        tally.errors += 1
        context.close(promise: nil)
    }

    private func send(_ context: ChannelHandlerContext) {
        guard !finished, NIODeadline.now() < deadline, !tokens.isEmpty else {
            finish()
            context.close(promise: nil)
            return
        }
        let token = tokens[next % tokens.count]
        next += 1
        let body = "{\"id\":\"\(UUID().uuidString.lowercased())\"}"
        let request =
            "POST /v1/check-ins HTTP/1.1\r\nHost: \(host)\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        sentAt = .now()
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: request)), promise: nil)
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        done.succeed(tally)
    }

    /// Removes one complete response from the received bytes and returns its status code, or
    /// nil while it is still incomplete. Bodies are framed by Content-Length or chunked.
    private func takeResponse() -> Int? {
        guard var buffer = received else { return nil }
        let view = buffer.readableBytesView
        guard let headerEnd = Self.find([13, 10, 13, 10], in: view, from: view.startIndex) else { return nil }
        let head = String(decoding: view[view.startIndex..<headerEnd], as: UTF8.self).lowercased()
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        let bodyStart = headerEnd + 4
        var end: Int
        if let length = lines.first(where: { $0.hasPrefix("content-length:") })
            .flatMap({ Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) })
        {
            end = bodyStart + length
            guard view.endIndex >= end else { return nil }
        } else if lines.contains(where: { $0.hasPrefix("transfer-encoding:") && $0.contains("chunked") }) {
            // The last chunk: a size of 0 on a line of its own, then the empty trailer line.
            guard let last = Self.find(Array("\r\n0\r\n\r\n".utf8), in: view, from: headerEnd + 2) else { return nil }
            end = last + 7
        } else {
            end = bodyStart
        }
        buffer.moveReaderIndex(forwardBy: end - view.startIndex)
        received = buffer.readableBytes == 0 ? nil : buffer
        return status
    }

    private static func find(_ pattern: [UInt8], in view: ByteBufferView, from start: Int) -> Int? {
        guard view.endIndex - start >= pattern.count else { return nil }
        var index = start
        while index <= view.endIndex - pattern.count {
            if view[index] == pattern[0], view[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
