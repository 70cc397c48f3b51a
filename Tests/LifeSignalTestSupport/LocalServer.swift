import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Serves `router` on 127.0.0.1, on a port the system picks, for the length of `body`, which
/// gets the port: the fake providers (Twilio, webhooks, Web Push, ntfy) of every test target.
///
/// The server stops when `body` returns or throws, `onExit` first (a fake holding requests
/// lets them go): a failing body stops the fake and fails the test, where a task group left
/// waiting for a server that runs for ever would hang the whole run.
public func withLocalServer<Context: RequestContext, R: Sendable>(
    _ router: Router<Context>,
    server: HTTPServerBuilder = .http1(),
    label: String = "fake-provider",
    onExit: @Sendable () -> Void = {},
    _ body: (_ port: Int) async throws -> R
) async throws -> R where Context.Source == ApplicationRequestContextSource {
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    var logger = Logger(label: label)
    logger.logLevel = .critical  // cancelling the server at the end of a test logs errors
    let app = Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
            portContinuation.finish()
        },
        logger: logger
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw WorldError("the fake server \(label) did not start") }
        do {
            let result = try await body(port)
            onExit()
            group.cancelAll()
            return result
        } catch {
            onExit()
            group.cancelAll()
            throw error
        }
    }
}
