/// One operation of the `/v1` API: its method, its path template (OpenAPI style, `{id}`)
/// and its `operationId` in `openapi.yaml`. The server registers its routes from this
/// table and the clients build their requests from it; a test checks it against the
/// OpenAPI document, so the three cannot drift apart.
public struct Operation: Hashable, Sendable, CustomStringConvertible {
    public enum Method: String, Sendable, Hashable { case GET, POST, PUT, PATCH, DELETE }

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

    /// The path with its `{parameters}` filled in, each percent-encoded.
    public func path(_ parameters: [String: String]) -> String {
        var result = path
        for (name, value) in parameters {
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))) ?? value
            result = result.replacingOccurrences(of: "{\(name)}", with: encoded)
        }
        return result
    }
}

import Foundation
