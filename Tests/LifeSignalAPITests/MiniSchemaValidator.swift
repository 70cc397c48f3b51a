import Foundation

/// A deliberately small JSON Schema checker for the subset `openapi.json` uses: `type`
/// (one or several), `required`, `properties`, `additionalProperties: false`, `enum`, `const`,
/// `items`, `$ref`, `oneOf` (exactly one), `anyOf` (at least one), `format` (`uuid`,
/// `date-time` as LifeSignal writes them), `pattern`, `minLength`/`maxLength` (in code points),
/// `minimum`/`maximum`, `maxProperties`, and `contentSchema` for a string of
/// `contentMediaType: application/json`. Anything else is ignored. Returns the problems found,
/// empty when valid.
struct MiniSchemaValidator {
    let document: [String: Any]

    func validate(_ instance: Any, against schema: [String: Any], at path: String = "$") -> [String] {
        var problems: [String] = []

        if let ref = schema["$ref"] as? String {
            guard let target = Doc.resolve(ref, in: document) as? [String: Any] else {
                return ["\(path): unresolvable $ref \(ref)"]
            }
            problems += validate(instance, against: target, at: path)
        }

        if let types = Self.types(schema["type"]), !types.contains(where: { Self.matches(instance, type: $0) }) {
            return problems + ["\(path): expected \(types.joined(separator: " or ")), got \(Self.describe(instance))"]
        }

        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, instance) }) {
            problems.append("\(path): \(Self.describe(instance)) is not one of \(options.map(Self.describe))")
        }

        if let constant = schema["const"], !Self.equal(constant, instance) {
            problems.append("\(path): \(Self.describe(instance)) is not \(Self.describe(constant))")
        }

        if let anyOf = schema["anyOf"] as? [[String: Any]] {
            let results = anyOf.map { validate(instance, against: $0, at: path) }
            if !results.contains(where: \.isEmpty) {
                problems.append(
                    "\(path): matches none of the anyOf alternatives (\(results.flatMap { $0 }.prefix(4).joined(separator: "; ")))")
            }
        }

        if let number = instance as? NSNumber, !Self.isBool(number) {
            if let minimum = schema["minimum"] as? NSNumber, number.doubleValue < minimum.doubleValue {
                problems.append("\(path): \(number) is less than \(minimum)")
            }
            if let maximum = schema["maximum"] as? NSNumber, number.doubleValue > maximum.doubleValue {
                problems.append("\(path): \(number) is more than \(maximum)")
            }
        }

        if let oneOf = schema["oneOf"] as? [[String: Any]] {
            let results = oneOf.map { validate(instance, against: $0, at: path) }
            let passing = results.filter(\.isEmpty).count
            if passing != 1 {
                problems.append(
                    "\(path): matches \(passing) of the oneOf alternatives, expected exactly 1 (\(results.flatMap { $0 }.prefix(4).joined(separator: "; ")))"
                )
            }
        }

        if let object = instance as? [String: Any] {
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required property “\(key)”")
            }
            if let most = schema["maxProperties"] as? Int, object.count > most {
                problems.append("\(path): more than \(most) properties")
            }
            for (key, value) in object {
                if let propertySchema = properties[key] {
                    problems += validate(value, against: propertySchema, at: "\(path).\(key)")
                } else if (schema["additionalProperties"] as? Bool) == false {
                    problems.append("\(path): unexpected property “\(key)”")
                }
            }
        }

        if let array = instance as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                problems += validate(element, against: items, at: "\(path)[\(index)]")
            }
        }

        if let string = instance as? String {
            switch schema["format"] as? String {
            case "uuid" where !Self.matches(string, #"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"#):
                problems.append("\(path): “\(string)” is not a lowercase UUID")
            case "date-time" where !Self.matches(string, #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#):
                problems.append("\(path): “\(string)” is not an ISO 8601 UTC date with milliseconds")
            default: break
            }
            if let pattern = schema["pattern"] as? String, !Self.matches(string, pattern) {
                problems.append("\(path): “\(string)” does not match \(pattern)")
            }
            let length = string.unicodeScalars.count
            if let least = schema["minLength"] as? Int, length < least {
                problems.append("\(path): “\(string)” is shorter than \(least)")
            }
            if let most = schema["maxLength"] as? Int, length > most {
                problems.append("\(path): “\(string)” is longer than \(most)")
            }
            if schema["contentMediaType"] as? String == "application/json", let content = schema["contentSchema"] as? [String: Any] {
                if let parsed = try? JSONSerialization.jsonObject(with: Data(string.utf8), options: [.fragmentsAllowed]) {
                    problems += validate(parsed, against: content, at: "\(path)<json>")
                } else {
                    problems.append("\(path): “\(string)” is not JSON")
                }
            }
        }
        return problems
    }

    /// Validates against a named component schema.
    func validate(_ instance: Any, against name: String) -> [String] {
        validate(instance, against: ["$ref": "#/components/schemas/\(name)"])
    }

    // MARK: - Helpers

    static func types(_ value: Any?) -> [String]? {
        if let one = value as? String { return [one] }
        return value as? [String]
    }

    static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "null": value is NSNull
        case "boolean": isBool(value)
        case "integer":
            if isBool(value) {
                false
            } else if let number = value as? NSNumber {
                number.doubleValue == number.doubleValue.rounded()
            } else {
                false
            }
        case "number": !isBool(value) && value is NSNumber
        default: false
        }
    }

    static func equal(_ a: Any, _ b: Any) -> Bool {
        if let a = a as? String, let b = b as? String { return a == b }
        if isBool(a) || isBool(b) { return isBool(a) && isBool(b) && (a as! NSNumber).boolValue == (b as! NSNumber).boolValue }
        if let a = a as? NSNumber, let b = b as? NSNumber { return a == b }
        return a is NSNull && b is NSNull
    }

    static func matches(_ string: String, _ pattern: String) -> Bool {
        string.range(of: pattern, options: .regularExpression) != nil
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case let string as String: "\"\(string)\""
        case is NSNull: "null"
        case is [String: Any]: "an object"
        case is [Any]: "an array"
        default: isBool(value) ? ((value as! NSNumber).boolValue ? "true" : "false") : "\(value)"
        }
    }
}
