import Foundation
import LifeSignalAPI
import LifeSignalModels
import Testing

/// The document says what the server does with input: sample inputs are judged by the
/// server's own check (the `/v1` decoder) and by the document's schema, and the two must agree.
@Suite("OpenAPI request rules match the server's")
struct OpenAPIRequestRuleTests {
    let validator: MiniSchemaValidator

    init() throws {
        validator = MiniSchemaValidator(document: try Doc.load())
    }

    func schemaAccepts(_ value: Any, _ schema: String) -> Bool {
        validator.validate(value, against: schema).isEmpty
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
        let json = #"{"firstName":null,"lastName":null,"emergencyNote":null,"schedule":null,"reminders":null,"graceMinutes":null,"timeZone":null,"watchOnly":null}"#
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
