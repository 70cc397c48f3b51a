import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
@_spi(Testing) import LifeSignalServer
import LifeSignalTestSupport
import NIOCore
import Synchronization
import Testing

/// `GET /v1/events` on a real socket, where `LiveStreamHandler` holds it in the connection's
/// pipeline instead of a request's task: everything the router's stream does, it does.
@Suite("Live streams held without a task", .timeLimit(.minutes(5)))
struct LiveStreamTests {
    /// Opens `token`'s stream (`GET /v1/events`) on `client`: the shared one, or one of the
    /// test's own when its connection matters (`withOwnConnection`).
    static func open(
        _ token: String, port: Int, requestID: String? = nil, on client: HTTPClient = .shared
    ) async throws -> HTTPClientResponse {
        try await get("/v1/events", token: token, port: port, requestID: requestID, on: client)
    }

    /// `GET path` with `token`, on `client`'s connection to the test server.
    static func get(
        _ path: String, token: String, port: Int, requestID: String? = nil, on client: HTTPClient = .shared
    ) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let requestID { request.headers.add(name: "X-Request-Id", value: requestID) }
        return try await client.execute(request, timeout: .seconds(30))
    }

    /// Runs `body` with an HTTP client of its own, one connection to a host at a time: its
    /// first request is the first on a new connection, and the next ones follow it on the same.
    static func withOwnConnection<T: Sendable>(_ body: (HTTPClient) async throws -> T) async throws -> T {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Reads the stream until `count` status events have been read (or it ended), returning all read.
    static func read(_ events: inout HTTPClientResponse.Body.AsyncIterator, statuses count: Int) async throws -> String {
        var read = ""
        while read.components(separatedBy: "event: status\n").count - 1 < count || !read.hasSuffix("\n\n"),
            let chunk = try await events.next()
        {
            read += String(buffer: chunk)
        }
        return read
    }

    /// Reads the stream until `text` has been read (or the stream ended), returning all read.
    static func read(_ events: inout HTTPClientResponse.Body.AsyncIterator, until text: String) async throws -> String {
        var read = ""
        while !read.contains(text), let chunk = try await events.next() { read += String(buffer: chunk) }
        return read
    }

    /// Sends the process-wide keep-alive, expects it on the stream, then ends every stream
    /// (as graceful shutdown does) and reads this one to its end.
    static func keepAliveThenEnd(_ events: inout HTTPClientResponse.Body.AsyncIterator, _ world: TestWorld) async throws {
        world.core.events.keepAliveAll()
        #expect(try await read(&events, until: ": keep-alive\n\n").contains(": keep-alive"))
        world.core.events.finishAll()
        while try await events.next() != nil {}
    }

    @Test func aStreamOpensWithTheRoutersHeadAndFirstStatus() async throws {
        let world = try await TestWorld()
        try await world.test(.live) { client in
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700903001")
            let stream = try await Self.open(bob, port: try #require(client.port), requestID: "stream-1")
            #expect(stream.status == .ok)
            #expect(stream.headers.first(name: "content-type") == "text/event-stream")
            #expect(stream.headers.first(name: "cache-control") == "no-cache")
            #expect(stream.headers.first(name: "x-accel-buffering") == "no")
            #expect(stream.headers.first(name: "x-request-id") == "stream-1")
            #expect(stream.headers.first(name: "server") == "LifeSignal")
            #expect(stream.headers.first(name: "date")?.hasSuffix(" GMT") == true)
            var events = stream.body.makeAsyncIterator()
            let first = try await Self.read(&events, until: "}\n\n")
            #expect(first.hasPrefix("retry: 3000\n\nevent: status\ndata: {"))
            #expect(first.contains(bobUser.id.description))
            #expect(world.core.events.subscriberCount(bobUser.id) == 1)

            // The process-wide keep-alive reaches it; the end of every stream (graceful
            // shutdown's) ends it with its last chunk and takes it out of the hub.
            try await Self.keepAliveThenEnd(&events, world)
            #expect(world.core.events.subscriberCount(bobUser.id) == 0)
        }
    }

    /// Each refusal is the router's own answer, over the same socket: no token, a stale one,
    /// a check-in token, one stream too many.
    @Test func refusalsAreAnsweredAsEver() async throws {
        var limits = ServiceConfiguration()
        limits.streamsPerUser = 1
        let world = try await TestWorld(configuration: limits)
        try await world.test(.live) { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700903011")
            let none = try await client.call(Operations.streamEvents)
            #expect(none.status == .unauthorized && none.error?.code == .unauthorized)
            let stale = try await client.call(Operations.streamEvents, token: "ls_not_a_token")
            #expect(stale.status == .unauthorized && stale.error?.code == .unauthorized)
            let checkInOnly = try await client.call(
                Operations.createAPIToken, token: ada, json: TokenNameBody(name: "button", scope: .checkIn)
            ).decode(TokenResponse.self)
            let scoped = try await client.call(Operations.streamEvents, token: checkInOnly.token)
            #expect(scoped.status == .forbidden && scoped.error?.code == .tokenScope)

            let stream = try await Self.open(ada, port: try #require(client.port))
            #expect(stream.status == .ok)
            let second = try await client.call(Operations.streamEvents, token: ada)
            #expect(second.status == .tooManyRequests && second.error?.code == .tooManyStreams)
            #expect(second.headers[.retryAfter] == "30")
            // The refused request went to the router; the connection still answers the next one.
            #expect(try await client.call(Operations.getStatus, token: ada).status == .ok)
        }
    }

    /// A stream carries its holder's own events and those of the people they watch over,
    /// nobody else's: Carol, who watches nobody, never reads Ada's status.
    @Test func aStreamCarriesOnlyItsHoldersEvents() async throws {
        let world = try await TestWorld()
        try await world.test(.live) { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700903021")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700903022")
            let (carol, carolUser) = try await client.signUp(world, first: "Carol", phone: "+447700903023")
            try await client.link(responder: bob, dependent: ada)
            let port = try #require(client.port)
            var bobEvents = try await Self.open(bob, port: port).body.makeAsyncIterator()
            var carolEvents = try await Self.open(carol, port: port).body.makeAsyncIterator()
            _ = try await Self.read(&carolEvents, until: "}\n\n")  // her own opening status

            #expect(try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID()))).status == .created)
            // Carol's own check-in comes after Ada's on every stream it reaches.
            #expect(
                try await client.call(Operations.checkIn, token: carol, json: CheckInBody(id: CheckInID(UUID()))).status == .created)
            let carolRead = try await Self.read(&carolEvents, statuses: 1)
            #expect(!carolRead.contains(adaUser.id.description))
            #expect(carolRead.contains(carolUser.id.description))
            #expect(try await Self.read(&bobEvents, until: adaUser.id.description).contains(adaUser.id.description))
        }
    }

    /// A stream asked for by a connection's first request keeps no task (`LiveHTTP1Channel`):
    /// the connection is never handed to Hummingbird's `handleHTTP`, and the stream is served
    /// as ever, its events and its end included.
    @Test func aStreamOpenedFirstOnItsConnectionKeepsNoTask() async throws {
        let world = try await TestWorld()
        try await world.test(.live) { client in
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700903041")
            let port = try #require(client.port)
            let connections = world.app.connections
            let served = connections.connectionsServed
            try await Self.withOwnConnection { http in
                let stream = try await Self.open(bob, port: port, on: http)
                #expect(stream.status == .ok)
                var events = stream.body.makeAsyncIterator()
                #expect(try await Self.read(&events, until: "}\n\n").contains("event: status"))
                // `handle` learns it just after the stream's opening is written.
                try await withFailureDeadline(seconds: 30, "the stream was not held") { await connections.untilHeld(1) }
                #expect(connections.streamsHeld == 1 && connections.streamsOpen == 1)
                #expect(connections.connectionsServed == served)

                #expect(
                    try await client.call(Operations.checkIn, token: bob, json: CheckInBody(id: CheckInID(UUID()))).status == .created)
                #expect(try await Self.read(&events, statuses: 1).contains(bobUser.id.description))
                world.core.events.finishAll()
                while try await events.next() != nil {}
            }
            try await withFailureDeadline(seconds: 30, "the stream did not close") { await connections.allClosed() }
            #expect(connections.streamsOpen == 0)
            #expect(world.core.events.subscriberCount(bobUser.id) == 0)
        }
    }

    /// A connection that asked for something else first is Hummingbird's as ever: a stream it
    /// asks for next is still held by the handler (the connection keeps its task).
    @Test func aStreamAfterAnotherRequestOnTheSameConnection() async throws {
        let world = try await TestWorld()
        try await world.test(.live) { client in
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700903051")
            let port = try #require(client.port)
            let connections = world.app.connections
            let served = connections.connectionsServed
            try await Self.withOwnConnection { http in
                let first = try await Self.get("/v1/me/status", token: bob, port: port, on: http)
                #expect(first.status == .ok)
                _ = try await first.body.collect(upTo: 1 << 20)
                #expect(connections.connectionsServed == served + 1)

                let stream = try await Self.open(bob, port: port, on: http)
                #expect(stream.status == .ok)
                var events = stream.body.makeAsyncIterator()
                #expect(try await Self.read(&events, until: "}\n\n").contains(bobUser.id.description))
                // The same connection: no new one served, none held without its task.
                #expect(connections.connectionsServed == served + 1)
                #expect(connections.streamsHeld == 0)
                #expect(world.core.events.subscriberCount(bobUser.id) == 1)

                try await Self.keepAliveThenEnd(&events, world)
            }
            #expect(world.core.events.subscriberCount(bobUser.id) == 0)
        }
    }

    /// A stream refused on a connection's first request goes to the router, which answers it:
    /// the connection is then Hummingbird's, and serves the next request.
    @Test func aRefusalFirstOnItsConnectionIsTheRoutersAnswer() async throws {
        let world = try await TestWorld()
        try await world.test(.live) { client in
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700903061")
            let port = try #require(client.port)
            let connections = world.app.connections
            let served = connections.connectionsServed
            try await Self.withOwnConnection { http in
                let refused = try await Self.open("ls_not_a_token", port: port, on: http)
                #expect(refused.status == .unauthorized)
                let body = String(buffer: try await refused.body.collect(upTo: 1 << 20))
                #expect(body.contains("unauthorized"))
                #expect(connections.connectionsServed == served + 1 && connections.streamsHeld == 0)

                let next = try await Self.get("/v1/me/status", token: bob, port: port, on: http)
                #expect(next.status == .ok)
                _ = try await next.body.collect(upTo: 1 << 20)
                #expect(connections.connectionsServed == served + 1)
            }
        }
    }

    /// Graceful shutdown of the server ends every open stream with its last chunk (the server
    /// asks each connection to finish), so a stream never holds a restart.
    @Test func gracefulShutdownEndsAnOpenStream() async throws {
        let world = try await TestWorld()
        let ended = Shared<String?>(nil)
        let reader = Shared<Task<Void, Never>?>(nil)
        try await world.test(.live) { client in
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700903031")
            let stream = try await Self.open(bob, port: try #require(client.port))
            let opened = Shared<Bool>(false)
            let (signal, signalled) = AsyncStream<Void>.makeStream()
            reader.withLock {
                $0 = Task {
                    var events = stream.body.makeAsyncIterator()
                    do {
                        _ = try await Self.read(&events, until: "}\n\n")
                        opened.withLock { $0 = true }
                        signalled.yield()
                        while try await events.next() != nil {}
                        ended.withLock { $0 = "ended" }
                    } catch {
                        ended.withLock { $0 = "failed: \(error)" }
                    }
                    signalled.finish()
                }
            }
            var waiting = signal.makeAsyncIterator()
            _ = await waiting.next()
            #expect(opened.withLock { $0 })
            // The connection's first request: the stream is held without a task.
            let connections = world.app.connections
            try await withFailureDeadline(seconds: 30, "the stream was not held") { await connections.untilHeld(1) }
            #expect(world.app.connections.streamsHeld == 1 && world.app.connections.streamsOpen == 1)
        }
        // The test's server has shut down gracefully: the stream ended cleanly before it did.
        #expect(world.app.connections.streamsOpen == 0)
        await reader.withLock { $0 }?.value
        #expect(ended.withLock { $0 } == "ended")
    }
}
