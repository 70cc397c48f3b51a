import Foundation

/// The OpenAPI 3.1 document of `/v1`. `openapi.json` in this target is the source; the
/// YAML form is emitted from it (JSON scalars are valid YAML, so no YAML library is needed).
public enum OpenAPIDocument {
    public static func json() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    /// The parsed document.
    public static func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: json()) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return object
    }

    public static let yaml: String = {
        guard let object = try? object() else { return "" }
        var out = ""
        emit(object, indent: 0, into: &out)
        return out
    }()

    /// Block-style YAML: keys in order, scalars written as JSON (quoted strings, numbers, booleans).
    static func emit(_ value: Any, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent)
        switch value {
        case let dict as [String: Any]:
            for key in dict.keys.sorted(by: orderedKeys) {
                let child = dict[key]!
                out += "\(pad)\(yamlKey(key)):"
                if isContainer(child), !isEmptyContainer(child) {
                    out += "\n"
                    emit(child, indent: indent + 1, into: &out)
                } else {
                    out += " \(scalar(child))\n"
                }
            }
        case let array as [Any]:
            for element in array {
                if isContainer(element), !isEmptyContainer(element) {
                    var nested = ""
                    emit(element, indent: indent + 1, into: &nested)
                    let trimmed = nested.drop { $0 == " " }
                    out += "\(pad)- \(trimmed)"
                } else {
                    out += "\(pad)- \(scalar(element))\n"
                }
            }
        default:
            out += "\(pad)\(scalar(value))\n"
        }
    }

    // `openapi`, `info` and `paths` first, the rest alphabetically, as people expect to read it.
    static func orderedKeys(_ a: String, _ b: String) -> Bool {
        let first = ["openapi", "info", "servers", "paths", "components"]
        let (ia, ib) = (first.firstIndex(of: a) ?? first.count, first.firstIndex(of: b) ?? first.count)
        return ia != ib ? ia < ib : a < b
    }

    static func isContainer(_ value: Any) -> Bool { value is [String: Any] || value is [Any] }

    static func isEmptyContainer(_ value: Any) -> Bool {
        (value as? [String: Any])?.isEmpty ?? (value as? [Any])?.isEmpty ?? false
    }

    /// Keys that YAML reads as plain strings are written bare; the rest are quoted.
    static func yamlKey(_ key: String) -> String {
        let reserved: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"]
        let plain =
            key.first.map { $0.isLetter || $0 == "/" } == true
            && key.allSatisfy { $0.isLetter || $0.isNumber || "_/{}.-".contains($0) }
            && !reserved.contains(key.lowercased())
        return plain ? key : scalar(key)
    }

    static func scalar(_ value: Any) -> String {
        if let dict = value as? [String: Any], dict.isEmpty { return "{}" }
        if let array = value as? [Any], array.isEmpty { return "[]" }
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            // Booleans come back from JSONSerialization as NSNumbers of type "c".
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            return number.stringValue
        }
        let data = (try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
