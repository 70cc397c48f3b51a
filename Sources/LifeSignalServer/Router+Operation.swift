import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// Typed routes: a handler registered for an `Operation<Body, Response>` gets the decoded
/// `Body` (or, for `NoBody`, the request, to read its query) and must return a `Response`,
/// which is encoded with the `/v1` conventions under the operation's documented status.
/// For a `NoContent` operation the handler returns nothing and the answer is `204`.
extension RouterMethods {
    /// A JSON body in, a JSON answer out. `status` chooses another documented 2xx for an answer
    /// (a repeated check-in is `200`, not `201`).
    @discardableResult
    func on<Body: Decodable & Sendable, Response: Encodable & Sendable>(
        _ operation: Operation<Body, Response>,
        status: (@Sendable (Response) -> HTTPResponse.Status)? = nil,
        use handler: @escaping @Sendable (Body, Context) async throws -> Response
    ) -> Self {
        on(operation.endpoint) { request, context in
            let body = try await request.decode(as: Body.self, context: context)
            let response = try await handler(body, context)
            return JSON(response, status: status?(response) ?? HTTPResponse.Status(code: operation.status))
        }
    }

    /// A JSON body in, a JSON answer out, for the handler that also reads the request's headers.
    @discardableResult
    func on<Body: Decodable & Sendable, Response: Encodable & Sendable>(
        _ operation: Operation<Body, Response>,
        use handler: @escaping @Sendable (Body, Request, Context) async throws -> Response
    ) -> Self {
        on(operation.endpoint) { request, context in
            let body = try await request.decode(as: Body.self, context: context)
            return JSON(try await handler(body, request, context), status: HTTPResponse.Status(code: operation.status))
        }
    }

    /// No body in (the request is there for its query), a JSON answer out.
    @discardableResult
    func on<Response: Encodable & Sendable>(
        _ operation: Operation<NoBody, Response>,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) -> Self {
        on(operation.endpoint) { request, context in
            JSON(try await handler(request, context), status: HTTPResponse.Status(code: operation.status))
        }
    }

    /// A JSON body in, `204 No Content` out.
    @discardableResult
    func on<Body: Decodable & Sendable>(
        _ operation: Operation<Body, NoContent>,
        use handler: @escaping @Sendable (Body, Context) async throws -> Void
    ) -> Self {
        on(operation.endpoint) { request, context in
            try await handler(try await request.decode(as: Body.self, context: context), context)
            return Response(status: .noContent)
        }
    }

    /// No body in, `204 No Content` out.
    @discardableResult
    func on(
        _ operation: Operation<NoBody, NoContent>,
        use handler: @escaping @Sendable (Request, Context) async throws -> Void
    ) -> Self {
        on(operation.endpoint) { request, context in
            try await handler(request, context)
            return Response(status: .noContent)
        }
    }

    /// The few operations whose bodies are not JSON (an avatar's bytes, the event stream):
    /// the handler reads the request and writes the response itself.
    @discardableResult
    func on(
        _ endpoint: Endpoint, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) -> Self {
        let path = endpoint.path.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? ":" + part.dropFirst().dropLast() : part
        }.joined(separator: "/")
        return on(RouterPath(path), method: HTTPRequest.Method(rawValue: endpoint.method.rawValue)!, use: handler)
    }
}

extension RequestContext {
    /// A typed id from the path; a malformed one is a 400, not a 404 or a crash.
    func id<Tag>(_ name: String = "id", as: Identifier<Tag>.Type = Identifier<Tag>.self) throws -> Identifier<Tag> {
        guard let text = parameters.get(name), let id = Identifier<Tag>(string: text) else {
            throw ServiceError.invalid(field: name, "That id is not valid.")
        }
        return id
    }
}

extension Request {
    /// A query parameter parsed by `transform`; a present but unparsable value is a 400.
    func query<T>(_ name: String, _ transform: (String) -> T?) throws -> T? {
        guard let raw = uri.queryParameters.get(name) else { return nil }
        guard let value = transform(raw) else {
            throw ServiceError.invalid(field: name, "The query parameter “\(name)” is not valid.")
        }
        return value
    }
}
