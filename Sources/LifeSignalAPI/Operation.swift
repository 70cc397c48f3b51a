/// One operation of the `/v1` API: its method, its path template (OpenAPI style, `{id}`)
/// and its `operationId` in `openapi.yaml`. The server registers its routes from this
/// table and the clients build their requests from it; a test checks it against the
/// OpenAPI document, so the three cannot drift apart.
public struct Operation: Hashable, Sendable, CustomStringConvertible {
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

    /// Whether a request path (without its query) fits this operation's template: the same
    /// number of segments, each `{parameter}` standing for any one non-empty segment.
    public func matches(path requestPath: String) -> Bool {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
        let actual = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard template.count == actual.count else { return false }
        return zip(template, actual).allSatisfy { part, segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? !segment.isEmpty : part == segment
        }
    }

    /// The methods `operations` serve at a request path, in the order of `Method`'s cases, for
    /// a 405's `Allow` header; empty when no operation lives there (a 404).
    public static func methods(at requestPath: String, in operations: [Operation]) -> [Method] {
        let served = Set(operations.filter { $0.matches(path: requestPath) }.map(\.method))
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
}

import Foundation
