import Foundation
import Hummingbird
import ServiceLifecycle
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// `GET /v1/events`: Server-Sent Events of the caller's new notifications and of status
/// changes of the caller and their dependents. A comment line every 15 s keeps proxies open.
struct EventStreamController {
    let service: LifeSignalService
    var keepAlive: Duration = .seconds(15)

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.streamEvents) { _, context in
            let caller = context.caller
            let initial = try await service.status(caller)
            let events = try service.events.subscribe(caller.user.id, configuration: service.configuration)
            let lines = Self.lines(events: events, keepAlive: keepAlive)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"],
                body: ResponseBody { writer in
                    service.metrics.streamOpened()
                    defer { service.metrics.streamClosed() }
                    try await writer.write(ByteBuffer(string: "retry: 3000\n\n" + Self.frame(.status(initial))))
                    for await line in lines {
                        try await writer.write(ByteBuffer(string: line))
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// The stream's frames: every event, and a keep-alive comment when nothing happened.
    /// It ends when the server shuts down gracefully, so an open stream never holds a restart.
    static func lines(events: AsyncStream<LiveEvent>, keepAlive: Duration) -> AsyncStream<String> {
        AsyncStream { continuation in
            // Unstructured tasks inherit the graceful-shutdown task-local of the request.
            let forward = Task {
                await cancelWhenGracefulShutdown {
                    for await event in events { continuation.yield(frame(event)) }
                }
                continuation.finish()
            }
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: keepAlive)
                    continuation.yield(": keep-alive\n\n")
                }
            }
            continuation.onTermination = { _ in
                forward.cancel()
                ticker.cancel()
            }
        }
    }

    static func frame(_ event: LiveEvent) -> String {
        let data: Data? =
            switch event {
            case let .notification(notification): try? APICoding.encoder.encode(notification)
            case let .status(status): try? APICoding.encoder.encode(status)
            case .contactsChanged: Data("{}".utf8)
            }
        return "event: \(event.name)\ndata: \(String(decoding: data ?? Data("{}".utf8), as: UTF8.self))\n\n"
    }
}
