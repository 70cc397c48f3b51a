import Foundation
import LifeSignalAPI

/// Small helpers for reading the parsed OpenAPI document in tests.
enum Doc {
    static func load() throws -> [String: Any] { try OpenAPIDocument.object() }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every operation of the document: method (upper case), path and its object.
    static func operations(_ doc: [String: Any]) -> [(method: String, path: String, operation: [String: Any])] {
        let paths = doc["paths"] as? [String: Any] ?? [:]
        var result: [(String, String, [String: Any])] = []
        for (path, item) in paths {
            guard let item = item as? [String: Any] else { continue }
            for method in methods {
                if let operation = item[method] as? [String: Any] { result.append((method.uppercased(), path, operation)) }
            }
        }
        return result.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    /// Follows a local JSON pointer (`#/components/schemas/User`), unescaping `~1` and `~0`.
    static func resolve(_ pointer: String, in doc: [String: Any]) -> Any? {
        guard pointer.hasPrefix("#/") else { return nil }
        var current: Any = doc
        for raw in pointer.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let dict = current as? [String: Any], let next = dict[key] {
                current = next
            } else if let array = current as? [Any], let index = Int(key), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// Every `$ref` value in the document, with where it was found.
    static func references(in value: Any, at location: String = "#") -> [(location: String, ref: String)] {
        switch value {
        case let dict as [String: Any]:
            var found: [(String, String)] = []
            if let ref = dict["$ref"] as? String { found.append((location, ref)) }
            for (key, child) in dict where key != "$ref" {
                found += references(in: child, at: location + "/" + key)
            }
            return found
        case let array as [Any]:
            return array.enumerated().flatMap { references(in: $1, at: location + "/\($0)") }
        default:
            return []
        }
    }
}
