import Foundation
import LifeSignalAPI
import LifeSignalModels
import LifeSignalRules
import Testing

/// The rules the server applies to input are in the document as schema keywords, not only as
/// prose: for each rule, sample inputs are judged by the server's own check (`Validation`, the
/// `/v1` decoder) and by the document's schema, and the two must agree.
@Suite("OpenAPI request rules match the server's")
struct OpenAPIRequestRuleTests {
    let validator: MiniSchemaValidator

    init() throws {
        validator = MiniSchemaValidator(document: try Doc.load())
    }

    func schemaAccepts(_ value: Any, _ schema: String) -> Bool {
        validator.validate(value, against: schema).isEmpty
    }

    func schemaAccepts(_ value: Any, schema: [String: Any]) -> Bool {
        validator.validate(value, against: schema).isEmpty
    }

    /// A property's schema inside a component, as the document gives it.
    func property(_ component: String, _ name: String) throws -> [String: Any] {
        let schemas = try #require((validator.document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let properties = try #require((schemas[component] as? [String: Any])?["properties"] as? [String: Any])
        return try #require(properties[name] as? [String: Any])
    }

    @Test func personNames() {
        let samples = [
            "Ada", "Jean-Luc", "O'Neil", "D’Arcy", "Zoë", "Mary Ann", "李小龙", "Nguyễn", "Ze\u{301}\u{301}\u{301}",
            String(repeating: "a", count: 50), String(repeating: "é", count: 50),
            "A", "", "Ze\u{301}\u{301}\u{301}\u{301}", "A1", "--", "' -", "Ada\nLovelace", "Ada\u{202E}x", "Ada!", "Ada\tB",
            String(repeating: "a", count: 51), "Ada\u{00A0}B", "R2-D2", "\u{301}",
        ]
        for sample in samples {
            let server = (try? Validation.name(sample, field: "firstName")) != nil
            #expect(server == schemaAccepts(sample, "PersonName"), "\(sample.debugDescription): the server says \(server)")
        }
        // What the schema cannot say, its description does: white space around a name is
        // trimmed, and a name is at most 200 bytes (so at most 125 code points).
        #expect((try? Validation.name("  Ada ", field: "firstName")) == "Ada")
        #expect(!schemaAccepts("  Ada ", "PersonName"))
        let heavy = String(repeating: "e\u{301}\u{301}", count: 40)  // 40 letters, 200 bytes: allowed
        #expect((try? Validation.name(heavy, field: "firstName")) != nil && schemaAccepts(heavy, "PersonName"))
        let tooHeavy = String(repeating: "é\u{301}\u{301}", count: 40)  // 240 bytes in 120 code points
        #expect((try? Validation.name(tooHeavy, field: "firstName")) == nil)
    }

    @Test func phoneNumbers() {
        let samples = [
            "+447700900123", "+44 7700 900123", "+1 (415) 555-0123", "+33.6.12.34.56.78", "+44\u{00A0}7700900123",
            "+12345678", "+123456789012345",
            "447700900123", "+0447700900123", "+1234567", "+1234567890123456", "+44 7700 9001a3", "++447700900123",
            "+44_7700900123", "+４４7700900123", "",
        ]
        for sample in samples {
            let server = (try? Validation.phone(sample)) != nil
            #expect(server == schemaAccepts(sample, "PhoneNumber"), "\(sample.debugDescription): the server says \(server)")
        }
        // What the server stores and answers is E.164 itself.
        for answer in ["User", "Contact", "CodeRequest"] {
            let stored: [String: Any] = ["$ref": "#/components/schemas/\(answer)/properties/phone"]
            #expect(schemaAccepts("+447700900123", schema: stored))
            #expect(!schemaAccepts("+44 7700 900123", schema: stored))
        }
    }

    @Test func contactCodes() throws {
        let code = "9f86d081884c7d659a2feaa0c55ad015"
        let body = try property("AddContactBody", "code")
        let accepted = [
            code, code.uppercased(), "lifesignal://contact/\(code)", "9f86d081-884c-7d65-9a2f-eaa0c55ad015",
            "9f86 d081 884c 7d65 9a2f eaa0 c55a d015",
        ]
        let refused = [String(code.dropLast()), code + "0", "9f86d081884c7d659a2feaa0c55ad01g", "", "lifesignal://contact/"]
        for sample in accepted {
            #expect(schemaAccepts(sample, schema: body), "\(sample) should fit the schema")
            #expect((try? Validation.contactCode(sample)) == code, "\(sample) should be read as the code")
        }
        for sample in refused {
            #expect(!schemaAccepts(sample, schema: body) && (try? Validation.contactCode(sample)) == nil, "\(sample)")
        }
        // In the path, dashes only (a space or a link is not a path segment).
        let parameter = try #require(
            ((Doc.resolve("#/paths/~1v1~1contact-codes~1{code}/get/parameters/0", in: validator.document) as? [String: Any])?["schema"])
                as? [String: Any])
        #expect(schemaAccepts("9f86d081-884c-7d65-9a2f-eaa0c55ad015", schema: parameter))
        #expect(!schemaAccepts("lifesignal://contact/\(code)", schema: parameter))
    }

    @Test func emergencyNote() throws {
        let schema = try property("ProfileChanges", "emergencyNote")
        let samples = [
            "Cat needs feeding", "Line one\nline two", "Windows\r\nline", "Tab\there", String(repeating: "x", count: 500), "Zoë",
            "Bell\u{7}", "Lone\rreturn", String(repeating: "x", count: 501), "e\u{301}\u{301}\u{301}\u{301}", "Bidi\u{202E}", "Sep\u{2028}",
        ]
        for sample in samples {
            let server = (try? Validation.emergencyNote(sample)) != nil
            #expect(server == schemaAccepts(sample, schema: schema), "\(sample.debugDescription): the server says \(server)")
        }
    }

    @Test func rolesInRequestsMayLeaveKeysOut() throws {
        for (json, roles) in [
            (#"{"responder":true}"#, ContactRoles.responder), (#"{"dependent":true,"responder":null}"#, .dependent),
            (#"{"responder":true,"dependent":true}"#, [.responder, .dependent]),
        ] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
            #expect(schemaAccepts(object, "ContactRolesChoice"), "\(json)")
            #expect(try APICoding.decoder.decode(ContactRoles.self, from: Data(json.utf8)) == roles)
        }
        // No role at all is refused by the server (`roles`, 400), and by the schema.
        for json in [#"{}"#, #"{"responder":false}"#, #"{"responder":null,"dependent":false}"#] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
            #expect(!schemaAccepts(object, "ContactRolesChoice"), "\(json)")
            #expect(try APICoding.decoder.decode(ContactRoles.self, from: Data(json.utf8)).isEmpty)
        }
        // Responses always carry both keys.
        #expect(!schemaAccepts(["responder": true], "ContactRoles"))
        #expect(schemaAccepts(try JSONSerialization.jsonObject(with: APICoding.encoder.encode(ContactRoles.responder)), "ContactRoles"))
        #expect(schemaAccepts(try JSONSerialization.jsonObject(with: APICoding.encoder.encode(RolesBody(roles: .dependent))), "RolesBody"))
    }

    @Test func nullInARequestIsLeavingItOut() throws {
        let json =
            #"{"firstName":null,"lastName":null,"emergencyNote":null,"schedule":null,"reminders":null,"graceMinutes":null,"timeZone":null,"watchOnly":null}"#
        #expect(try APICoding.decoder.decode(ProfileChanges.self, from: Data(json.utf8)) == ProfileChanges())
        #expect(schemaAccepts(try JSONSerialization.jsonObject(with: Data(json.utf8)), "ProfileChanges"))
        #expect(!schemaAccepts(["graceMinutes": 61], "ProfileChanges"))
        #expect(!schemaAccepts(["graceMinutes": "10"], "ProfileChanges"))
        let checkIn = #"{"id":"3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b","clientAt":null,"source":null}"#
        #expect(try APICoding.decoder.decode(CheckInBody.self, from: Data(checkIn.utf8)).source == nil)
        #expect(schemaAccepts(try JSONSerialization.jsonObject(with: Data(checkIn.utf8)), "CheckInBody"))
        let token = #"{"name":"Home","scope":null,"expiresAt":null}"#
        #expect(try APICoding.decoder.decode(TokenNameBody.self, from: Data(token.utf8)).scope == nil)
        #expect(schemaAccepts(try JSONSerialization.jsonObject(with: Data(token.utf8)), "TokenNameBody"))
        // A required property may not be null.
        #expect(!schemaAccepts(["id": NSNull()], "CheckInBody"))
        #expect((try? APICoding.decoder.decode(CheckInBody.self, from: Data(#"{"id":null}"#.utf8))) == nil)
    }
}
