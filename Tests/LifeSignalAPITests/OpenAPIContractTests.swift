import Foundation
import LifeSignalAPI
import Testing

/// The OpenAPI document and the `Operations` table the server routes from must describe the
/// same API: the same operations, the same authentication, and no dangling references.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    struct Key: Hashable, Comparable, CustomStringConvertible {
        var method: String
        var path: String
        var id: String
        var description: String { "\(method) \(path) (\(id))" }
        static func < (a: Key, b: Key) -> Bool { (a.path, a.method, a.id) < (b.path, b.method, b.id) }
    }

    @Test func documentIsOpenAPI31() throws {
        let doc = try Doc.load()
        #expect((doc["openapi"] as? String)?.hasPrefix("3.1") == true)
        let info = try #require(doc["info"] as? [String: Any])
        #expect(info["title"] as? String == "LifeSignal API")
        #expect((info["description"] as? String)?.isEmpty == false)
    }

    @Test func operationsMatchTheTableBothWays() throws {
        let doc = try Doc.load()
        let documented = Set(
            Doc.operations(doc).map {
                Key(method: $0.method, path: $0.path, id: $0.operation["operationId"] as? String ?? "<no operationId>")
            })
        let table = Set(Operations.all.map { Key(method: $0.method.rawValue, path: $0.path, id: $0.id) })

        let missingFromDocument = table.subtracting(documented).sorted()
        let missingFromTable = documented.subtracting(table).sorted()
        #expect(
            missingFromDocument.isEmpty && missingFromTable.isEmpty,
            """
            openapi.json and Operations.all disagree.
            In Operations.all but not in openapi.json (\(missingFromDocument.count)):
            \(missingFromDocument.map { "  - \($0)" }.joined(separator: "\n"))
            In openapi.json but not in Operations.all (\(missingFromTable.count)):
            \(missingFromTable.map { "  - \($0)" }.joined(separator: "\n"))
            """)
    }

    @Test func operationIdsAndRoutesAreUnique() throws {
        let ids = Operations.all.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate operationId in Operations.all")
        let routes = Operations.all.map(\.description)
        #expect(Set(routes).count == routes.count, "duplicate method and path in Operations.all")
        let documentedIDs = Doc.operations(try Doc.load()).compactMap { $0.operation["operationId"] as? String }
        #expect(Set(documentedIDs).count == documentedIDs.count, "duplicate operationId in openapi.json")
    }

    @Test func securityFollowsRequiresAuth() throws {
        let doc = try Doc.load()
        let global = try #require(doc["security"] as? [[String: Any]], "the document needs a global security requirement")
        #expect(global.count == 1 && global.first?["bearerAuth"] != nil, "global security must be bearerAuth")
        let components = try #require(doc["components"] as? [String: Any])
        let scheme = try #require((components["securitySchemes"] as? [String: Any])?["bearerAuth"] as? [String: Any])
        #expect(scheme["type"] as? String == "http")
        #expect(scheme["scheme"] as? String == "bearer")

        let byID = Dictionary(
            uniqueKeysWithValues: Doc.operations(doc).compactMap { entry in
                (entry.operation["operationId"] as? String).map { ($0, entry.operation) }
            })
        for operation in Operations.all {
            guard let documented = byID[operation.id] else { continue }  // reported by the drift test
            if operation.requiresAuth {
                #expect(documented["security"] == nil, "\(operation.id) requires auth: it must inherit the global bearer security")
            } else {
                let security = documented["security"] as? [Any]
                #expect(security != nil && security!.isEmpty, "\(operation.id) needs no auth: it must have `security: []`")
            }
        }
    }

    @Test func pathParametersAreDeclared() throws {
        for entry in Doc.operations(try Doc.load()) {
            let templated = Set(entry.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            let parameters = (entry.operation["parameters"] as? [[String: Any]] ?? []).filter { $0["in"] as? String == "path" }
            let declared = Set(parameters.compactMap { $0["name"] as? String })
            #expect(
                templated == declared,
                "\(entry.method) \(entry.path): path parameters \(declared.sorted()) ≠ template \(templated.sorted())")
            for parameter in parameters {
                #expect(parameter["required"] as? Bool == true, "\(entry.method) \(entry.path): path parameter must be required")
            }
        }
    }

    @Test func everyOperationDocumentsItsResponses() throws {
        for entry in Doc.operations(try Doc.load()) {
            let name = "\(entry.method) \(entry.path)"
            #expect((entry.operation["summary"] as? String)?.isEmpty == false, "\(name) has no summary")
            #expect((entry.operation["description"] as? String)?.isEmpty == false, "\(name) has no description")
            let responses = try #require(entry.operation["responses"] as? [String: Any], "\(name) has no responses")
            #expect(responses.keys.contains { $0.hasPrefix("2") }, "\(name) has no success response")
            #expect(responses["503"] != nil, "\(name) does not document 503")
            #expect(responses["401"] != nil, "\(name) does not document 401")
            for (status, response) in responses where !status.hasPrefix("2") {
                let refName = (response as? [String: Any])?["$ref"] as? String
                #expect(refName?.hasPrefix("#/components/responses/") == true, "\(name) \(status) must use a shared error response")
            }
        }
    }

    @Test func operationsThatTakeInputDocument400() throws {
        for entry in Doc.operations(try Doc.load()) {
            let takesInput = !(entry.operation["parameters"] as? [Any] ?? []).isEmpty || entry.operation["requestBody"] != nil
            guard takesInput else { continue }
            let responses = entry.operation["responses"] as? [String: Any] ?? [:]
            #expect(responses["400"] != nil, "\(entry.method) \(entry.path) takes input, so it can answer 400: document it")
        }
    }

    @Test func errorResponsesUseTheErrorSchema() throws {
        let doc = try Doc.load()
        let responses = try #require((doc["components"] as? [String: Any])?["responses"] as? [String: Any])
        #expect(!responses.isEmpty)
        for (name, response) in responses {
            let schema =
                ((((response as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                    as? [String: Any])
            #expect(schema?["$ref"] as? String == "#/components/schemas/Error", "response \(name) must use the Error schema")
        }
        let tooMany = try #require(responses["TooManyRequests"] as? [String: Any])
        #expect((tooMany["headers"] as? [String: Any])?["Retry-After"] != nil, "429 must document Retry-After")
    }

    @Test func everyReferenceResolves() throws {
        let doc = try Doc.load()
        let references = Doc.references(in: doc)
        #expect(references.count > 100, "suspiciously few references: \(references.count)")
        let dangling = references.filter { Doc.resolve($0.ref, in: doc) == nil }
        #expect(dangling.isEmpty, "dangling $ref:\n\(dangling.map { "  \($0.location) → \($0.ref)" }.joined(separator: "\n"))")

        // Discriminator mappings are references too, written as plain strings.
        let schemas = try #require((doc["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for (name, schema) in schemas {
            guard let mapping = ((schema as? [String: Any])?["discriminator"] as? [String: Any])?["mapping"] as? [String: String] else {
                continue
            }
            for (value, target) in mapping {
                #expect(Doc.resolve(target, in: doc) != nil, "\(name).discriminator.mapping.\(value) → \(target) does not resolve")
            }
        }
    }

    @Test func requiredPropertiesAreDeclared() throws {
        let doc = try Doc.load()
        let schemas = try #require((doc["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for (name, schema) in schemas {
            guard let schema = schema as? [String: Any], let required = schema["required"] as? [String] else { continue }
            let properties = Set((schema["properties"] as? [String: Any] ?? [:]).keys)
            #expect(Set(required).isSubset(of: properties), "\(name) requires undeclared \(Set(required).subtracting(properties).sorted())")
        }
    }
}
