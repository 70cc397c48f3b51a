import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels

/// Typed routes: a handler registered for an `Operation<Input, Body, Response>` gets the
/// `Input` read from the path and the query (a malformed one is a 400 before the handler
/// runs) and the decoded `Body`, and must return a `Response`, which is encoded with the `/v1`
/// conventions under the operation's documented status. An operation with neither input nor
/// body hands its handler the request, for its headers. For a `NoContent` operation the
/// handler returns nothing and the answer is `204`.
extension RouterMethods {
    /// A JSON body in, a JSON answer out. `status` chooses another documented 2xx for an answer
    /// (a repeated check-in is `200`, not `201`).
    @discardableResult
    func on<Body: Decodable & Sendable, Response: Encodable & Sendable>(
        _ operation: Operation<NoInput, Body, Response>,
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
        _ operation: Operation<NoInput, Body, Response>,
        use handler: @escaping @Sendable (Body, Request, Context) async throws -> Response
    ) -> Self {
        on(operation.endpoint) { request, context in
            let body = try await request.decode(as: Body.self, context: context)
            return JSON(try await handler(body, request, context), status: HTTPResponse.Status(code: operation.status))
        }
    }

    /// The path's or the query's input and a JSON body in, a JSON answer out.
    @discardableResult
    func on<Input: OperationInput, Body: Decodable & Sendable, Response: Encodable & Sendable>(
        _ operation: Operation<Input, Body, Response>,
        use handler: @escaping @Sendable (Input, Body, Context) async throws -> Response
    ) -> Self {
        on(operation.endpoint) { request, context in
            let input = try operation.input(of: request, context)
            let body = try await request.decode(as: Body.self, context: context)
            return JSON(try await handler(input, body, context), status: HTTPResponse.Status(code: operation.status))
        }
    }

    /// No input and no body in (the request is there for its headers), a JSON answer out.
    @discardableResult
    func on<Response: Encodable & Sendable>(
        _ operation: Operation<NoInput, NoBody, Response>,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) -> Self {
        on(operation.endpoint) { request, context in
            JSON(try await handler(request, context), status: HTTPResponse.Status(code: operation.status))
        }
    }

    /// The path's or the query's input in, a JSON answer out.
    @discardableResult
    func on<Input: OperationInput, Response: Encodable & Sendable>(
        _ operation: Operation<Input, NoBody, Response>,
        use handler: @escaping @Sendable (Input, Context) async throws -> Response
    ) -> Self {
        on(operation.endpoint) { request, context in
            let input = try operation.input(of: request, context)
            return JSON(try await handler(input, context), status: HTTPResponse.Status(code: operation.status))
        }
    }

    /// A JSON body in, `204 No Content` out.
    @discardableResult
    func on<Body: Decodable & Sendable>(
        _ operation: Operation<NoInput, Body, NoContent>,
        use handler: @escaping @Sendable (Body, Context) async throws -> Void
    ) -> Self {
        on(operation.endpoint) { request, context in
            try await handler(try await request.decode(as: Body.self, context: context), context)
            return Response(status: .noContent)
        }
    }

    /// Nothing in, `204 No Content` out.
    @discardableResult
    func on(
        _ operation: Operation<NoInput, NoBody, NoContent>,
        use handler: @escaping @Sendable (Request, Context) async throws -> Void
    ) -> Self {
        on(operation.endpoint) { request, context in
            try await handler(request, context)
            return Response(status: .noContent)
        }
    }

    /// The path's or the query's input in, `204 No Content` out.
    @discardableResult
    func on<Input: OperationInput>(
        _ operation: Operation<Input, NoBody, NoContent>,
        use handler: @escaping @Sendable (Input, Context) async throws -> Void
    ) -> Self {
        on(operation.endpoint) { request, context in
            try await handler(try operation.input(of: request, context), context)
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

extension Operation where Input: OperationInput {
    /// The operation's typed input, read from the request's path and query; a malformed value
    /// is a 400 naming the parameter, before anything else is read or done.
    func input(of request: Request, _ context: some RequestContext) throws -> Input {
        do {
            return try Input(
                from: InputTexts(path: { context.parameters.get($0) }, query: { request.uri.queryParameters.get($0) }))
        } catch {
            let name = error.parameter.name
            switch error.parameter.location {
            case .path where name == "id": throw ServiceError.invalid(field: name, Said("error.input.id"))
            case .path: throw ServiceError.invalid(field: name, Said("error.input.path", ["name": name]))
            case .query: throw ServiceError.invalid(field: name, Said("error.input.query", ["name": name]))
            }
        }
    }
}

extension RequestContext {
    /// A typed id from the path of a web page's route; a malformed one is a 400, not a 404 or
    /// a crash. (`/v1` operations get theirs typed, as their `Input`.)
    func id<Tag>(_ name: String = "id", as: Identifier<Tag>.Type = Identifier<Tag>.self) throws -> Identifier<Tag> {
        guard let text = parameters.get(name), let id = Identifier<Tag>(string: text) else {
            throw ServiceError.invalid(field: name, Said("error.input.id"))
        }
        return id
    }
}
