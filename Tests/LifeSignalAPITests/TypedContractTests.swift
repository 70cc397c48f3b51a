import Foundation
import LifeSignalAPI
import LifeSignalModels
import Testing

/// The types of every `Operation<Input, Body, Response>` against the OpenAPI document: the
/// path and query parameters, the request body and the success answer name the same
/// parameters and schemas, both ways, and the success status is one the document gives.
/// Together with `OpenAPIContractTests` (method, path, id, auth), an operation cannot say one
/// thing to the compiler and another to the document.
@Suite("Typed contract")
struct TypedContractTests {
    /// How the document names what a Swift type stands for: a schema name, `[Name]` for an
    /// array of a schema, `binary` for image bytes, `event-stream`, `csv`, or `none`.
    static func documentName(of type: Any.Type) -> String {
        switch type {
        case is NoBody.Type, is NoContent.Type: return "none"
        case is ImageBytes.Type: return "binary"
        case is EventStream.Type: return "event-stream"
        case is CSVText.Type: return "csv"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array<"), name.hasSuffix(">") { return "[" + name.dropFirst(6).dropLast() + "]" }
            return name
        }
    }

    /// The same naming read off a document media type's schema.
    static func documentName(of content: [String: Any]?) -> String {
        guard let content, let (mediaType, value) = content.first else { return "none" }
        if mediaType == "text/event-stream" { return "event-stream" }
        if mediaType == "text/csv" { return "csv" }
        let schema = (value as? [String: Any])?["schema"] as? [String: Any] ?? [:]
        if schema["format"] as? String == "binary" { return "binary" }
        if let ref = schema["$ref"] as? String { return String(ref.split(separator: "/").last ?? "") }
        if schema["type"] as? String == "array", let ref = (schema["items"] as? [String: Any])?["$ref"] as? String {
            return "[" + (ref.split(separator: "/").last ?? "") + "]"
        }
        return "inline schema"
    }

    @Test func bodiesAnswersAndStatusesMatchTheDocument() throws {
        let byID = Dictionary(
            uniqueKeysWithValues: Doc.operations(try Doc.load()).compactMap { entry in
                (entry.operation["operationId"] as? String).map { ($0, entry.operation) }
            })
        var mismatches: [String] = []
        for operation in Operations.all {
            guard let documented = byID[operation.id] else { continue }  // reported by OpenAPIContractTests
            let body = Self.documentName(of: (documented["requestBody"] as? [String: Any])?["content"] as? [String: Any])
            if body != Self.documentName(of: operation.bodyType) {
                mismatches.append("\(operation.id): body \(Self.documentName(of: operation.bodyType)) in Swift, \(body) in the document")
            }
            let responses = documented["responses"] as? [String: Any] ?? [:]
            let successes = responses.filter { $0.key.hasPrefix("2") }
            guard let success = successes[String(operation.status)] as? [String: Any] else {
                mismatches.append("\(operation.id): status \(operation.status) in Swift, \(successes.keys.sorted()) in the document")
                continue
            }
            for (status, response) in successes {
                let answer = Self.documentName(of: (response as? [String: Any])?["content"] as? [String: Any])
                if answer != Self.documentName(of: operation.responseType) {
                    mismatches.append(
                        "\(operation.id) \(status): answer \(Self.documentName(of: operation.responseType)) in Swift, \(answer) in the document"
                    )
                }
            }
            _ = success
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) operations disagree:\n\(mismatches.joined(separator: "\n"))")
    }

    /// Every operation's `Input` reads the parameters the document lists for it, by name and
    /// place, in its order; an operation the document gives none has `NoInput`.
    @Test func inputsReadTheDocumentsParameters() throws {
        var mismatches: [String] = []
        for entry in Doc.operations(try Doc.load()) {
            guard let id = entry.operation["operationId"] as? String, let operation = Operations.all.first(where: { $0.id == id })
            else { continue }  // reported by OpenAPIContractTests
            let documented = (entry.operation["parameters"] as? [[String: Any]] ?? []).compactMap { parameter in
                (parameter["name"] as? String).flatMap { name in
                    (parameter["in"] as? String).flatMap(InputParameter.Location.init(rawValue:)).map {
                        InputParameter(name: name, location: $0)
                    }
                }
            }
            if documented != operation.inputParameters {
                mismatches.append("\(id): \(operation.inputParameters) in Swift, \(documented) in the document")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) operations disagree:\n\(mismatches.joined(separator: "\n"))")
    }

    /// A query parameter left out means what the document says it defaults to: the input read
    /// from nothing equals the input read from the documented default.
    @Test func queryDefaultsAreTheDocumentsDefaults() throws {
        var checked = 0
        for entry in Doc.operations(try Doc.load()) {
            guard let id = entry.operation["operationId"] as? String, let operation = Operations.all.first(where: { $0.id == id }),
                let input = operation.inputType
            else { continue }
            for parameter in entry.operation["parameters"] as? [[String: Any]] ?? [] {
                guard parameter["in"] as? String == "query", let name = parameter["name"] as? String,
                    let schema = parameter["schema"] as? [String: Any], let value = schema["default"]
                else { continue }
                let text = schema["type"] as? String == "boolean" ? ((value as? Bool) == true ? "true" : "false") : "\(value)"
                #expect(try Self.readsTheSame(input, [name: text]), "\(id): \(name) defaults to \(text) in the document")
                checked += 1
            }
        }
        #expect(checked == 6, "the documented defaults were not all found")
    }

    static func readsTheSame<Input: OperationInput>(_: Input.Type, _ texts: [String: String]) throws -> Bool {
        try Input(from: InputTexts(texts)) == Input(from: InputTexts([:]))
    }

    @Test func aNoContentOperationAnswers204() {
        for operation in Operations.all where operation.responseType == NoContent.self {
            #expect(operation.status == 204, "\(operation.id)")
        }
    }

    @Test func everyErrorCodeIsDocumentedAndNothingElse() throws {
        let doc = try Doc.load()
        let code = try #require(Doc.resolve("#/components/schemas/ErrorBody/properties/code", in: doc) as? [String: Any])
        let documented = try #require(code["enum"] as? [String], "ErrorBody.code needs an enum of every code")
        let swift = ErrorCode.allCases.map(\.rawValue)
        #expect(
            documented == swift,
            """
            ErrorBody.code's enum and ErrorCode differ (order included).
            Only in ErrorCode: \(Set(swift).subtracting(documented).sorted())
            Only in the document: \(Set(documented).subtracting(swift).sorted())
            """)
    }

    @Test func anInvalidFieldHasItsOwnCodeOrTheGenericOne() {
        #expect(ErrorCode(invalidField: "phone") == .invalidPhone)
        #expect(ErrorCode(invalidField: "firstName") == .invalidFirstName)
        #expect(ErrorCode(invalidField: "graceMinutes").rawValue == "invalid_graceMinutes")
        #expect(ErrorCode(invalidField: "somethingNew") == .invalidInput)
    }

    /// Every operation declared in `Operations` is in `Operations.all`: the table the server
    /// registers, the clients and the document are checked against cannot miss one. (Static
    /// properties cannot be listed at run time, so the declarations are read from the source.)
    @Test func everyDeclaredOperationIsInTheTable() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/LifeSignalAPI/Operations.swift").standardized
        let text = try String(contentsOf: source, encoding: .utf8)
        let declaration = #/static let \w+ = Operation<[^\n]*>\(\s*\.[A-Z]+, "[^"]+", "(\w+)"/#
        let declared = text.matches(of: declaration).map { String($0.output.1) }
        #expect(declared.count > 80, "the declarations were not found in \(source.path)")
        let listed = Set(Operations.all.map(\.id))
        #expect(Set(declared).subtracting(listed).sorted() == [], "declared in Operations but missing from Operations.all")
        #expect(declared.count == Operations.all.count)
    }
}
