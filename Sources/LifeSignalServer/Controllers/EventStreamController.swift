import Foundation
import Hummingbird
import ServiceLifecycle
import Synchronization
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// `GET /v1/events`: Server-Sent Events of the caller's new notifications and of status
/// changes of the caller and their dependents. A comment line every 15 s keeps proxies open.
///
/// On a server, `LiveStreamHandler` holds these streams in the connection's pipeline without a
/// task (decision 0069); this route answers what it sends on (every refusal, a stream asked for
/// on a connection still writing a response) and in-memory router tests. The web page's stream
/// (`/events`) writes through `write` below.
struct EventStreamController {
    let checkIns: CheckIns
    let live: LiveUpdates
    let metrics: LifeSignalMetrics

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.streamEvents.endpoint) { _, context in
            let caller = context.caller
            // Read in a task of its own: a task keeps the memory its deepest call stack took
            // (the async frames' slabs) until it ends, and this request's task lasts as long
            // as the stream. The status read is the deepest part of opening one.
            let initial = try await Task { try await checkIns.status(caller) }.value
            let (events, end) = try live.subscribe(caller)
            return Response(
                status: .ok,
                headers: Self.headers,
                body: ResponseBody { writer in
                    metrics.streamOpened()
                    defer { metrics.streamClosed() }
                    try await writer.write(Self.opening(initial))
                    try await Self.write(events, end: end, to: &writer)
                })
        }
    }

    /// The head fields of every stream, whichever way it is held (here or `LiveStreamHandler`).
    static let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"]

    /// What a stream says first: how long to wait before reconnecting, then her status.
    static func opening(_ status: CheckInStatus) -> ByteBuffer {
        ByteBuffer(string: "retry: 3000\n\n" + frame(.status(status)))
    }

    /// Writes each event as it comes until the stream ends (graceful shutdown, see
    /// `LiveStreamKeepAlive`) or the client is gone (the next write, a keep-alive at the
    /// latest, fails). One task per stream, the request's own: idle streams cost little.
    static func write(
        _ events: AsyncStream<LiveEvent>, end: @escaping @Sendable () -> Void, to writer: inout some ResponseBodyWriter
    ) async throws {
        // A handler, not a task: at graceful shutdown every stream ends, so none holds a restart.
        try await withGracefulShutdownHandler {
            for await event in events {
                try await writer.write(bytes(event))
            }
        } onGracefulShutdown: {
            end()
        }
        try await writer.finish(nil)
    }

    /// The last event written and its frame: a status change goes to the streams of everyone
    /// watching over the person, and each would otherwise encode the same JSON again.
    private static let lastFrame = Mutex<(event: LiveEvent, bytes: ByteBuffer)?>(nil)

    /// The event's frame, encoded once for every stream that gets it.
    static func bytes(_ event: LiveEvent) -> ByteBuffer {
        if let last = lastFrame.withLock({ $0 }), last.event == event { return last.bytes }
        let bytes = ByteBuffer(string: frame(event))
        lastFrame.withLock { $0 = (event, bytes) }
        return bytes
    }

    static func frame(_ event: LiveEvent) -> String {
        let data: Data? =
            switch event {
            case let .notification(notification): try? APICoding.encoder.encode(notification)
            case let .status(status): try? APICoding.encoder.encode(status)
            case .contactsChanged: Data("{}".utf8)
            case .keepAlive: nil
            }
        guard let data else { return ": keep-alive\n\n" }
        return "event: \(event.name)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
    }
}

/// One timer for every open live stream of this process: a keep-alive comment every 15 s
/// (proxies keep the stream open; a stream whose client left fails its next write and ends),
/// and at graceful shutdown the end of every stream.
struct LiveStreamKeepAlive: Service {
    let hub: EventHub
    var interval: Duration = .seconds(15)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                hub.keepAliveAll()
            }
        }
        hub.finishAll()
    }
}
