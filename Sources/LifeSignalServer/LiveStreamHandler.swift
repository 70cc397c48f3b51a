import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels
import Logging
import NIOCore
import NIOHTTPTypes

/// What `LiveStreamHandler` needs to open a stream: the same use cases the router's
/// `EventStreamController` calls, and what the request observation says of a request.
struct LiveStreamOpener: Sendable {
    let accounts: Accounts
    let checkIns: CheckIns
    let live: LiveUpdates
    let metrics: LifeSignalMetrics
    let logger: Logger
    let makeID: @Sendable () -> String
    let serverName: String?
}

/// `GET /v1/events` held in the connection's HTTP/1 pipeline instead of in a request's task
/// (decision 0069): an open stream is this handler, its channel and one hub entry, and an event
/// is one encoded frame written to every stream's channel on its event loop.
///
/// It sits after Hummingbird's HTTP/1 codec (`HTTP1Channel.Configuration.additionalChannelHandlers`)
/// and takes over only a `GET /v1/events` with a bearer token on an idle connection. It
/// authenticates and reads the opening status in a short task, then writes the head, `retry`
/// and the status, as `EventStreamController` does. Anything that refuses (no valid token, a
/// check-in token, too many streams, a failed read) sends the request on to the router
/// unchanged, which answers it with the same errors as ever; every other request passes by.
final class LiveStreamHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        /// Requests go to the router.
        case passing
        /// A stream is being opened; the request's parts wait here in case the router must answer it.
        case opening(buffered: [HTTPRequestPart])
        /// The stream is open; `remove` takes it out of the hub.
        case streaming(remove: @Sendable () -> Void)
        /// The stream ended or the connection closed.
        case ended
    }

    private let opener: LiveStreamOpener
    private var state = State.passing
    /// Requests passed to the router whose response has not ended: a stream opens only on an
    /// idle connection, so it never interleaves with a response being written.
    private var unanswered = 0
    private var context: ChannelHandlerContext?

    init(opener: LiveStreamOpener) { self.opener = opener }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch state {
        case .passing:
            if case let .head(head) = part, unanswered == 0, let token = Self.streamToken(head) {
                state = .opening(buffered: [part])
                open(head, token: token, context: context)
                return
            }
            if case .head = part { unanswered += 1 }
            context.fireChannelRead(data)
        case var .opening(buffered):
            // A `GET` has a head and an end; a client sending more before its stream opens is not one.
            guard buffered.count < 8 else {
                state = .ended
                context.close(promise: nil)
                return
            }
            buffered.append(part)
            state = .opening(buffered: buffered)
        case .streaming, .ended:
            break  // a stream reads nothing more
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), unanswered > 0 { unanswered -= 1 }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case let .streaming(remove) = state { closed(remove) }
        state = .ended
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Graceful shutdown: the server asks every connection to finish. A stream ends itself
        // (its last chunk, then the close), as the router's stream ends at shutdown.
        if event is ChannelShouldQuiesceEvent {
            switch state {
            case .streaming:
                endStream()
                return
            case .opening:
                state = .ended
                context.close(promise: nil)
                return
            case .passing, .ended: break
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The bearer token of a `GET /v1/events`, or nil for any other request.
    static func streamToken(_ head: HTTPRequest) -> String? {
        guard head.method == .get, let path = head.path, path == "/v1/events" || path.hasPrefix("/v1/events?"),
            let header = head.headerFields[.authorization], header.lowercased().hasPrefix("bearer ")
        else { return nil }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    // MARK: Opening

    private func open(_ head: HTTPRequest, token: String, context: ChannelHandlerContext) {
        let started = ContinuousClock.now
        let opener = opener
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let id = RequestIdentity.sanitized(head.headerFields[RequestIdentity.header]) ?? opener.makeID()
        // A short task of its own: its frames (the session read, the status read) are freed
        // when it returns; the open stream keeps no task.
        Task {
            var opened: (caller: Caller, status: CheckInStatus)?
            do {
                let caller = try await opener.accounts.authenticate(token: token).caller()
                opened = (caller, try await opener.checkIns.status(caller))
            } catch {
                opened = nil
            }
            let result = opened
            loop.execute { handler.value.opened(result, id: id, started: started) }
        }
    }

    private func opened(_ opened: (caller: Caller, status: CheckInStatus)?, id: String, started: ContinuousClock.Instant) {
        guard case let .opening(buffered) = state, let context else { return }  // the client left meanwhile
        let listener = ChannelListener(handler: NIOLoopBound(self, eventLoop: context.eventLoop))
        guard let opened, let remove = try? opener.live.listen(opened.caller, with: listener) else {
            // Refused: the router answers, with the error it always gives.
            state = .passing
            unanswered += 1
            for part in buffered { context.fireChannelRead(wrapInboundOut(part)) }
            context.fireChannelReadComplete()
            return
        }
        state = .streaming(remove: remove)
        var fields = EventStreamController.headers
        fields[RequestIdentity.header] = id
        fields[.date] = Self.httpDate()
        if let server = opener.serverName { fields[.server] = server }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .ok, headerFields: fields))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.body(EventStreamController.opening(opened.status))), promise: nil)
        // The connection's own task is not needed for a stream opened first on it (`LiveHTTP1Channel`).
        context.fireUserInboundEventTriggered(LiveStreamOpenedEvent())
        opener.metrics.streamOpened()
        var logger = opener.logger
        logger[metadataKey: "request_id"] = .string(id)
        RequestObservationMiddleware<AppRequestContext>.record(
            method: "GET", route: "/v1/events", status: .ok, elapsed: ContinuousClock.now - started,
            userID: opened.caller.user.id, metrics: opener.metrics.factory, logger: logger)
    }

    private func closed(_ remove: @Sendable () -> Void) {
        remove()
        opener.metrics.streamClosed()
    }

    // MARK: Streaming

    /// Writes one event's frame. A client that has not read what was written before (NIO's
    /// write buffer past its high-water mark) loses its stream rather than the server's memory:
    /// it reconnects after `retry` and reads the status afresh.
    fileprivate func send(_ frame: ByteBuffer) {
        guard case .streaming = state, let context else { return }
        guard context.channel.isWritable else {
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(frame)), promise: nil)
    }

    /// Ends the stream: the last chunk, then the connection closes.
    fileprivate func endStream() {
        guard case let .streaming(remove) = state, let context else { return }
        closed(remove)
        state = .ended
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// The events of many streams: the frame encoded once, one task on each event loop that
    /// writes it to every stream of that loop.
    static func deliver(_ event: LiveEvent, to listeners: [any LiveListener]) {
        let frame = EventStreamController.bytes(event)
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, listeners: [ChannelListener])] = [:]
        for case let listener as ChannelListener in listeners {
            let loop = listener.handler.eventLoop
            byLoop[ObjectIdentifier(loop), default: (loop, [])].listeners.append(listener)
        }
        for (loop, group) in byLoop.values {
            loop.execute {
                for listener in group { listener.handler.value.send(frame) }
            }
        }
    }

    /// `Date` as HTTP writes it, as Hummingbird puts it on every response.
    static func httpDate(_ now: Date = Date()) -> String {
        var seconds = time_t(now.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = [CChar](repeating: 0, count: 40)
        let count = strftime(&text, text.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: text[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// One open stream as the hub holds it: its handler, reached on its event loop.
final class ChannelListener: LiveListener {
    let handler: NIOLoopBound<LiveStreamHandler>

    init(handler: NIOLoopBound<LiveStreamHandler>) { self.handler = handler }

    func end() {
        let handler = handler
        handler.eventLoop.execute { handler.value.endStream() }
    }
}
