import Foundation

/// One operation of the `/v1` API, typed by what it takes and what it answers: `checkIn` is an
/// `Operation<NoInput, CheckInBody, CheckInResult>`, so the server's handler must decode a
/// `CheckInBody` and return a `CheckInResult`, and the client's `send(.checkIn, body)` must
/// pass one and gets one back; `getContact` is an `Operation<ByID<User>, NoBody, Contact>`,
/// so its handler is handed the contact's id already parsed, and its caller must give one.
/// The compiler keeps both sides to the same contract.
///
/// `Input` is what the path and the query carry (an `OperationInput`, or `NoInput`); `Body`
/// is `NoBody` for operations without a request body; `Response` is `NoContent` for a
/// `204`. The avatar's bytes are `ImageBytes`, the live events an `EventStream`, a CSV file `CSVText`.
/// `OpenAPIContractTests` and `TypedContractTests` hold every operation equal to the OpenAPI
/// document: method, path, `operationId`, the path and query parameters, the body and response
/// schemas by name, and the success status.
public struct Operation<Input: Sendable, Body: Sendable, Response: Sendable>: OperationDescription {
    public let endpoint: Endpoint
    /// The status of a success, as the document gives it (`201` for a creation, `202` for a
    /// contact request, `204` for `NoContent`). A handler may answer another documented 2xx
    /// (a repeated check-in is `200`).
    public let status: Int

    public init(_ method: Endpoint.Method, _ path: String, _ id: String, requiresAuth: Bool = true, status: Int? = nil) {
        endpoint = Endpoint(method, path, id, requiresAuth: requiresAuth)
        self.status = status ?? (Response.self == NoContent.self ? 204 : 200)
    }

    public var inputType: (any OperationInput.Type)? { Input.self as? any OperationInput.Type }
    public var inputParameters: [InputParameter] { inputType?.parameters ?? [] }
    public var bodyType: Any.Type { Body.self }
    public var responseType: Any.Type { Response.self }
}

extension Operation where Input: OperationInput {
    /// The path with `input`'s path parameters filled in, and its query items after a `?`:
    /// what follows the server's address in the request.
    public func pathAndQuery(_ input: Input) -> String {
        let all = input.texts
        func texts(in location: InputParameter.Location) -> [String: String] {
            let names = Set(Input.parameters.filter { $0.location == location }.map(\.name))
            return all.filter { names.contains($0.key) }
        }
        return endpoint.path(texts(in: .path)) + Endpoint.query(texts(in: .query))
    }
}

/// What the contract says of an operation, whatever its types: the operation table
/// (`Operations.all`) is a list of these.
public protocol OperationDescription: Sendable, CustomStringConvertible {
    var endpoint: Endpoint { get }
    var status: Int { get }
    /// The type of what its path and query carry; nil for `NoInput`.
    var inputType: (any OperationInput.Type)? { get }
    /// The path and query parameters its `Input` reads, as the document names them.
    var inputParameters: [InputParameter] { get }
    /// The Swift type of the request body (`NoBody` when there is none).
    var bodyType: Any.Type { get }
    /// The Swift type of the success answer (`NoContent` for a 204).
    var responseType: Any.Type { get }
}

extension OperationDescription {
    public var method: Endpoint.Method { endpoint.method }
    public var path: String { endpoint.path }
    public var id: String { endpoint.id }
    public var requiresAuth: Bool { endpoint.requiresAuth }
    public var description: String { endpoint.description }
    public func matches(path requestPath: String) -> Bool { endpoint.matches(path: requestPath) }
    public func path(_ parameters: [String: String]) -> String { endpoint.path(parameters) }
}

/// Where an operation lives: its method, its path template (OpenAPI style, `{id}`) and its
/// `operationId` in the document. The server registers its routes from these and the clients
/// build their URLs from them.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    public enum Method: String, Sendable, Hashable, CaseIterable { case GET, POST, PUT, PATCH, DELETE }

    public var method: Method
    public var path: String
    public var id: String
    /// False for the few operations callers use before they have a token.
    public var requiresAuth: Bool

    public init(_ method: Method, _ path: String, _ id: String, requiresAuth: Bool = true) {
        self.method = method
        self.path = path
        self.id = id
        self.requiresAuth = requiresAuth
    }

    public var description: String { "\(method.rawValue) \(path)" }

    /// Whether a request path (without its query) fits this template: the same number of
    /// segments, each `{parameter}` standing for any one non-empty segment.
    public func matches(path requestPath: String) -> Bool {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
        let actual = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard template.count == actual.count else { return false }
        return zip(template, actual).allSatisfy { part, segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? !segment.isEmpty : part == segment
        }
    }

    /// The operations a request path reaches, as the router chooses: where a fixed segment and
    /// a `{parameter}` both fit (`/v1/notifications/read-all` and `/v1/notifications/{id}`),
    /// the fixed one wins, segment by segment, and the router never falls back to the other.
    public static func served(at requestPath: String, in operations: [any OperationDescription]) -> [any OperationDescription] {
        let matching = operations.filter { $0.matches(path: requestPath) }
        func fixed(_ operation: any OperationDescription) -> [Int] {
            operation.path.split(separator: "/").map { $0.hasPrefix("{") ? 0 : 1 }
        }
        guard let best = matching.map(fixed).max(by: { $0.lexicographicallyPrecedes($1) }) else { return [] }
        return matching.filter { fixed($0) == best }
    }

    /// The methods served at a request path, in the order of `Method`'s cases, for a 405's
    /// `Allow` header; empty when no operation lives there (a 404).
    public static func methods(at requestPath: String, in operations: [any OperationDescription]) -> [Method] {
        let served = Set(served(at: requestPath, in: operations).map(\.method))
        return Method.allCases.filter(served.contains)
    }

    /// The path with its `{parameters}` filled in, each percent-encoded.
    public func path(_ parameters: [String: String]) -> String {
        var result = path
        for (name, value) in parameters {
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))) ?? value
            result = result.replacingOccurrences(of: "{\(name)}", with: encoded)
        }
        return result
    }

    /// Query items as a URL's query (`?a=1&b=2`, by name, each value percent-encoded), or ""
    /// for none.
    public static func query(_ items: [String: String]) -> String {
        guard !items.isEmpty else { return "" }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return "?"
            + items.sorted { $0.key < $1.key }.map { name, value in
                "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
            }.joined(separator: "&")
    }
}

/// The request body of an operation that takes none. Not `Decodable` on purpose: the server's
/// typed `on(_:)` then hands such handlers their input, or (with `NoInput`) the request, for
/// its headers, instead of a body.
public struct NoBody: Sendable, Hashable {
    public init() {}
}

/// The answer of an operation that answers `204 No Content`.
public struct NoContent: Sendable, Hashable {
    public init() {}
}

/// A picture's bytes (`image/png` or `image/jpeg`): the avatar, both ways.
public struct ImageBytes: Sendable, Hashable {
    public var bytes: [UInt8]
    public var contentType: String

    public init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}

/// Comma-separated values (`text/csv; charset=utf-8`, RFC 4180): the check-ins export.
public struct CSVText: Sendable, Hashable {
    public var text: String

    public init(_ text: String) { self.text = text }
}

/// The answer of `GET /v1/events`: Server-Sent Events (`text/event-stream`) for as long as
/// the connection lasts. A marker: neither side decodes it as one value.
public enum EventStream: Sendable {}
