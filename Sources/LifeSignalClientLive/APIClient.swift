import AsyncHTTPClient
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels
import NIOCore

/// The one typed HTTP layer of the live clients: builds requests from the operation table,
/// adds the bearer token, encodes and decodes with `APICoding`, and turns every failure into
/// an `APIError` (the error envelope, or `.offline` when no answer came back).
public struct APIClient: Sendable {
    public var baseURL: URL
    /// The bearer token to send, read on every request (nil: not signed in).
    public var token: @Sendable () throws -> String?
    /// How long a request may take before the server counts as unreachable.
    public var timeout: Duration
    /// The reader's language (a BCP 47 tag), sent as `Accept-Language`: the server's refusals
    /// come back in it. Nil: none is sent, and they come back in English.
    public var language: String?
    let http: HTTPClient

    public init(
        baseURL: URL, token: @escaping @Sendable () throws -> String?, timeout: Duration = .seconds(20),
        language: String? = nil, httpClient: HTTPClient = APIClient.sharedHTTPClient
    ) {
        self.baseURL = baseURL
        self.token = token
        self.timeout = timeout
        self.language = language
        self.http = httpClient
    }

    /// One connection pool for the process, never shut down. Unlike `HTTPClient.shared` it
    /// does not retry a refused connection until the deadline: an offline device must learn
    /// at once that it is offline, so a check-in is queued instead of spinning for seconds.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// `LIFESIGNAL_SERVER` (default `http://localhost:8080`) with the stored token.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        tokens: TokenStorageClient = .liveValue
    ) -> APIClient {
        let server = environment["LIFESIGNAL_SERVER"].flatMap(URL.init(string:)) ?? URL(string: "http://localhost:8080")!
        return APIClient(baseURL: server, token: { try tokens.load() })
    }

    /// Sends an operation's input and body and decodes its answer: the operation's types say
    /// all three.
    public func send<Input: OperationInput, Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<Input, Body, Response>, _ input: Input, body: Body
    ) async throws -> Response {
        try decode(await data(operation, input, body: try encode(body)))
    }

    /// Sends an operation's body and decodes its answer.
    public func send<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<NoInput, Body, Response>, body: Body
    ) async throws -> Response {
        try decode(await data(operation.endpoint, body: try encode(body)))
    }

    /// Calls an operation with its input and no body, and decodes its answer.
    public func send<Input: OperationInput, Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<Input, NoBody, Response>, _ input: Input
    ) async throws -> Response {
        try decode(await data(operation, input))
    }

    /// Calls an operation that takes nothing, and decodes its answer.
    public func send<Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<NoInput, NoBody, Response>
    ) async throws -> Response {
        try decode(await data(operation.endpoint))
    }

    /// Sends an operation's body; the answer is `204 No Content`.
    public func send<Body: Encodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<NoInput, Body, NoContent>, body: Body
    ) async throws {
        _ = try await data(operation.endpoint, body: try encode(body))
    }

    /// Calls an operation with its input and no body; the answer is `204 No Content`.
    public func send<Input: OperationInput>(
        _ operation: LifeSignalAPI.Operation<Input, NoBody, NoContent>, _ input: Input
    ) async throws {
        _ = try await data(operation, input)
    }

    /// Calls an operation that takes nothing; the answer is `204 No Content`.
    public func send(_ operation: LifeSignalAPI.Operation<NoInput, NoBody, NoContent>) async throws {
        _ = try await data(operation.endpoint)
    }

    /// Sends a picture (the avatar).
    public func send(_ operation: LifeSignalAPI.Operation<NoInput, ImageBytes, NoContent>, body: ImageBytes) async throws {
        _ = try await data(operation.endpoint, body: Data(body.bytes), contentType: body.contentType)
    }

    /// Calls an operation with its input and a raw body or none, and returns the raw answer
    /// (the avatar's bytes).
    public func data<Input: OperationInput, Body, Response>(
        _ operation: LifeSignalAPI.Operation<Input, Body, Response>, _ input: Input, body: Data? = nil
    ) async throws -> Data {
        try await data(operation.endpoint, target: operation.pathAndQuery(input), body: body)
    }

    /// Calls an endpoint with a raw body or none, and returns the raw answer. `target` is the
    /// path with its parameters and query (the endpoint's own path when it takes none).
    public func data(
        _ endpoint: Endpoint, target: String? = nil, body: Data? = nil, contentType: String = "application/json"
    ) async throws -> Data {
        let request = try makeRequest(endpoint, target: target ?? endpoint.path, body: body, contentType: contentType)
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await http.execute(request, timeout: timeAmount(timeout))
            bytes = try await response.body.collect(upTo: 16 << 20)
        } catch {
            throw Self.transportError(error)
        }
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(response.status.code) else {
            throw Self.error(status: Int(response.status.code), body: data)
        }
        return data
    }

    /// Opens a streaming answer (`GET /v1/events`) and returns its body once the server
    /// has accepted it. No deadline: the stream lasts until either side closes it.
    public func stream(_ operation: LifeSignalAPI.Operation<NoInput, NoBody, EventStream>) async throws -> HTTPClientResponse.Body {
        var request = try makeRequest(operation.endpoint, target: operation.path, body: nil, contentType: "application/json")
        request.headers.replaceOrAdd(name: "Accept", value: "text/event-stream")
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, deadline: .distantFuture)
        } catch {
            throw Self.transportError(error)
        }
        guard (200..<300).contains(response.status.code) else {
            let body = (try? await response.body.collect(upTo: 1 << 20)).map { Data($0.readableBytesView) } ?? Data()
            throw Self.error(status: Int(response.status.code), body: body)
        }
        return response.body
    }

    /// The full URL of a path (with its query) on the server.
    func url(_ target: String) -> String {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + target
    }

    private func makeRequest(_ endpoint: Endpoint, target: String, body: Data?, contentType: String) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url(target))
        request.method = .init(rawValue: endpoint.method.rawValue)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "LifeSignalClient")
        if let language { request.headers.add(name: "Accept-Language", value: language) }
        if endpoint.requiresAuth {
            guard let token = try token(), !token.isEmpty else { throw APIError.notSignedIn }
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
        }
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        return request
    }

    private func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    private func encode(_ body: some Encodable) throws -> Data {
        try APICoding.encoder.encode(body)
    }

    private func decode<Response: Decodable>(_ data: Data) throws -> Response {
        do {
            return try APICoding.decoder.decode(Response.self, from: data)
        } catch {
            throw APIError.invalidResponse(status: 200, "\(Response.self): \(error)")
        }
    }

    /// Any failure before an answer arrived: the server is unreachable from here.
    static func transportError(_ error: any Error) -> any Error {
        if error is CancellationError { return error }
        if let error = error as? APIError { return error }
        return APIError.offline(String(describing: error))
    }

    /// A non-2xx answer: the error envelope when there is one. A code this build does not
    /// know (a newer server) is nil; its message still reaches the person.
    static func error(status: Int, body: Data) -> APIError {
        struct Envelope: Decodable {
            struct Body: Decodable {
                var code: String
                var message: String
                var field: String?
            }
            var error: Body
        }
        if let envelope = try? APICoding.decoder.decode(Envelope.self, from: body) {
            let error = envelope.error
            return .server(status: status, code: ErrorCode(rawValue: error.code), message: error.message, field: error.field)
        }
        return .invalidResponse(status: status, String(decoding: body.prefix(200), as: UTF8.self))
    }
}
