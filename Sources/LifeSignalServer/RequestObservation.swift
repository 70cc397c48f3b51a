import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalModels
import Logging
import Synchronization

/// One access-log line, the HTTP metrics and a request id for every request.
///
/// The id comes from the client's `X-Request-Id` when it is sane (1 to 64 characters of
/// letters, digits, `-` and `_`), else it is made here; it goes on every log line of the
/// request (`request_id`) and back to the client as `X-Request-Id`. The access line names the
/// route pattern (`/v1/contacts/{id}`, never the raw path), the status, the time to the
/// response in milliseconds and, once a caller is known, their user id — never a phone number.
///
/// Sits outermost, around the error middleware, so it sees the status the client gets.
struct RequestObservationMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: any MetricsFactory
    let makeID: @Sendable () -> String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let id = RequestIdentity.sanitized(request.headers[RequestIdentity.header]) ?? makeID()
        var context = context
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = .string(id)
        let trace = RequestTrace()
        var response: Response
        do {
            response = try await RequestTrace.$current.withValue(trace) { try await next(request, context) }
        } catch {
            // The error middleware inside answers every error; what still reaches here is
            // Hummingbird's own (a body too large to read, say).
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            observe(request, context: context, status: status, started: started, trace: trace)
            throw error
        }
        response.headers[RequestIdentity.header] = id
        observe(request, context: context, status: response.status, started: started, trace: trace)
        return response
    }

    private func observe(
        _ request: Request, context: Context, status: HTTPResponse.Status, started: ContinuousClock.Instant, trace: RequestTrace
    ) {
        // Hummingbird names the route of a request that matched none `NotFound`.
        Self.record(
            method: request.method.rawValue, route: context.endpointPath ?? "NotFound", status: status,
            elapsed: ContinuousClock.now - started, userID: trace.userID, metrics: metrics, logger: context.logger)
    }

    /// The access-log line and the HTTP metrics of one request; also said by the live stream
    /// handler (`LiveStreamHandler`), which answers `GET /v1/events` outside the router.
    static func record(
        method: String, route: String, status: HTTPResponse.Status, elapsed: Duration, userID: UserID?,
        metrics: any MetricsFactory, logger: Logger
    ) {
        Counter(
            label: "lifesignal_http_requests_total",
            dimensions: [("method", method), ("route", route), ("status", String(status.code))], factory: metrics
        ).increment()
        CoreMetrics.Timer(
            label: "lifesignal_http_request_duration_seconds", dimensions: [("method", method), ("route", route)],
            factory: metrics
        ).recordNanoseconds(Int64(elapsed / .nanoseconds(1)))
        var line: Logger.Metadata = [
            "method": .string(method), "route": .string(route), "status": .stringConvertible(status.code),
            "duration_ms": .string(String(format: "%.2f", Double(elapsed / .microseconds(1)) / 1000)),
        ]
        if let userID { line["user_id"] = .string(userID.description) }
        logger.info("request", metadata: line)
    }
}

enum RequestIdentity {
    static let header = HTTPField.Name("X-Request-Id")!

    /// The client's request id when it is 1 to 64 characters of `[A-Za-z0-9_-]`.
    static func sanitized(_ value: String?) -> String? {
        guard let value, (1...64).contains(value.utf8.count),
            value.utf8.allSatisfy({ byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95
            })
        else { return nil }
        return value
    }
}

/// What the layers inside learn about a request that its access-log line reports: who the
/// caller is, once authentication found them. Shared by reference for the request's task.
final class RequestTrace: Sendable {
    @TaskLocal static var current: RequestTrace?

    private let user = Mutex<UserID?>(nil)

    var userID: UserID? {
        get { user.withLock { $0 } }
        set { user.withLock { $0 = newValue } }
    }
}
