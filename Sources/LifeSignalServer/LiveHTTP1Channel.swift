import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import ServiceLifecycle
import Synchronization

/// Hummingbird's HTTP/1 connection, except that a connection whose first request opens a live
/// stream keeps no task (decision 0069): `HTTP1Channel` runs one task per connection for as
/// long as the connection lives, parked at the read of the next request even while
/// `LiveStreamHandler` holds the stream in the pipeline.
///
/// The pipeline is `HTTP1Channel`'s (the HTTP/1 codec with the same decoder limits, the
/// additional handlers, Hummingbird's `HTTPConnectionStateHandler` with the idle timeout) and a
/// `FirstRequestGate` at its end. NIO registers an accepted connection only once `setup`'s
/// future has succeeded, so the choice is made in `handle`: it waits for the gate to say what
/// the first request made of the connection. A stream: `handle` returns and the connection
/// lives on in NIO, no `NIOAsyncChannel` ever built for it. Anything else: `handle` wraps the
/// channel as `HTTP1Channel.setup` does, the gate hands it the parts it held, and Hummingbird's
/// own `handleHTTP` serves the connection (a stream asked for later on it keeps that task).
struct LiveHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        let gate: NIOLoopBound<FirstRequestGate>
        let first: EventLoopFuture<FirstRequestGate.Outcome>
    }

    let responder: HTTPChannelHandler.Responder
    let configuration: HTTP1Channel.Configuration
    let connections: LiveConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
            limits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
            limits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
            let pipeline = channel.pipeline.syncOperations
            // As `HTTP1Channel.setup`: no pipelining assistance, errors handled by the
            // responder, no outbound header validation (HTTP types validate already).
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandlers(configuration.additionalChannelHandlers())
            try pipeline.addHandler(
                HTTPConnectionStateHandler(idleTimeout: configuration.idleTimeout.map { .init($0) }, logger: logger))
            let decided = channel.eventLoop.makePromise(of: FirstRequestGate.Outcome.self)
            let gate = FirstRequestGate(decided: decided)
            try pipeline.addHandler(gate)
            return Value(channel: channel, gate: NIOLoopBound(gate, eventLoop: channel.eventLoop), first: decided.futureResult)
        }
    }

    func handle(value: Value, logger: Logger) async {
        switch try? await value.first.get() {
        case .stream:
            connections.held(value.channel)
            return
        case .closed, nil:
            return
        case .http:
            break
        }
        let channel = value.channel
        let gate = value.gate
        let asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
        do {
            asyncChannel = try await channel.eventLoop.submit {
                guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
                let wrapped = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                    wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                gate.value.release()
                return wrapped
            }.get()
        } catch {
            logger.trace("Failed to read/write to Channel. Error: \(error)")
            return
        }
        connections.served()
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// `.http1(configuration:)`, with `LiveHTTP1Channel` for the connections.
    static func liveHTTP1(configuration: HTTP1Channel.Configuration, connections: LiveConnections) -> HTTPServerBuilder {
        .init { responder in LiveHTTP1Channel(responder: responder, configuration: configuration, connections: connections) }
    }
}

/// Sent up the pipeline by `LiveStreamHandler` once its stream is open.
struct LiveStreamOpenedEvent: Sendable {}

/// The end of a `LiveHTTP1Channel`'s pipeline until its first request is placed: it says what
/// that request made of the connection and holds what reaches it (request parts, errors,
/// events such as the client's half-close) until Hummingbird's `NIOAsyncChannel` handler is
/// added after it, reading no more meanwhile.
final class FirstRequestGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    enum Outcome: Sendable {
        /// `LiveStreamHandler` holds the connection's stream.
        case stream
        /// Hummingbird serves the connection; the gate holds the first request.
        case http
        /// The connection closed first.
        case closed
    }

    private enum Held {
        case read(NIOAny)
        case event(Any)
        case error(any Error)
    }

    private var decided: EventLoopPromise<Outcome>?
    private var held: [Held] = []
    private var readWaiting = false
    private var released = false
    private var context: ChannelHandlerContext?

    init(decided: EventLoopPromise<Outcome>) { self.decided = decided }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        decide(.closed)
    }

    private func decide(_ outcome: Outcome) {
        guard let decided else { return }
        self.decided = nil
        decided.succeed(outcome)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !released else { return context.fireChannelRead(data) }
        if case .head = unwrapInboundIn(data) { decide(.http) }
        held.append(.read(data))
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if released { context.fireChannelReadComplete() }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !released else { return context.fireErrorCaught(error) }
        // A request the codec could not parse: Hummingbird answers it (400) as ever.
        decide(.http)
        held.append(.error(error))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is LiveStreamOpenedEvent {
            if decided != nil {
                decide(.stream)
                // Nothing more for the gate to do: a stream reads no more requests.
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            }
            return
        }
        guard !released else { return context.fireUserInboundEventTriggered(event) }
        held.append(.event(event))
    }

    func channelInactive(context: ChannelHandlerContext) {
        decide(.closed)
        context.fireChannelInactive()
    }

    func read(context: ChannelHandlerContext) {
        // The first request waits here for its handler: read no more until it is there.
        if !released && !held.isEmpty {
            readWaiting = true
        } else {
            context.read()
        }
    }

    /// Hands what the gate held to the handler added after it, and leaves the pipeline.
    func release() {
        guard !released, let context else { return }
        released = true
        let held = held
        self.held = []
        for item in held {
            switch item {
            case let .read(data): context.fireChannelRead(data)
            case let .event(event): context.fireUserInboundEventTriggered(event)
            case let .error(error): context.fireErrorCaught(error)
            }
        }
        if !held.isEmpty { context.fireChannelReadComplete() }
        if readWaiting {
            readWaiting = false
            context.read()
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

/// What `LiveHTTP1Channel` did with its connections, and the streams it holds without a task:
/// at shutdown `LiveStreamDrain` waits for those, as the server waits for its tasks.
@_spi(Testing) public final class LiveConnections: Sendable {
    private struct State {
        var open: [ObjectIdentifier: EventLoopFuture<Void>] = [:]
        var held = 0
        var served = 0
        /// Tests waiting until so many streams have been held.
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Connections whose first request opened a stream, held with no task.
    @_spi(Testing) public var streamsHeld: Int { state.withLock { $0.held } }
    /// Those streams still open.
    @_spi(Testing) public var streamsOpen: Int { state.withLock { $0.open.count } }
    /// Connections served by Hummingbird's `handleHTTP`, one task each.
    @_spi(Testing) public var connectionsServed: Int { state.withLock { $0.served } }

    func held(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let reached = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open[key] = channel.closeFuture
            state.held += 1
            let held = state.held
            defer { state.waiters.removeAll { $0.count <= held } }
            return state.waiters.filter { $0.count <= held }.map(\.continuation)
        }
        for waiter in reached { waiter.resume() }
        channel.closeFuture.whenComplete { _ in self.state.withLock { _ = $0.open.removeValue(forKey: key) } }
    }

    /// Returns once `count` streams in all have been held without a task (at once if they have).
    @_spi(Testing) public func untilHeld(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.held >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    func served() { state.withLock { $0.served += 1 } }

    /// Returns once every stream held now has closed.
    @_spi(Testing) public func allClosed() async {
        let open = state.withLock { Array($0.open.values) }
        for closed in open { try? await closed.get() }
    }
}

/// Shut down right after the HTTP server (the last of the application's own services): the
/// server's run ends once its connections' tasks have, and a stream held without a task ends
/// on the server's `ChannelShouldQuiesceEvent`; this waits for those streams to close before
/// the rest (hub keep-alives, the database) shuts down.
struct LiveStreamDrain: Service {
    let connections: LiveConnections

    func run() async throws {
        do { try await gracefulShutdown() } catch { return }
        await connections.allClosed()
    }
}
