import Foundation
import LifeSignalAPI
@testable import LifeSignalClient
@testable import LifeSignalClientLive
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("Errors: the envelope, no token, no network")
struct APIErrorTests {
    @Test func theErrorEnvelopeBecomesATypedErrorWithTheServersMessage() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let device = Device(server: server)
            _ = try await device.auth.requestCode(phone: "+447700900201")
            let error = try await #require(throws: APIError.self) {
                try await device.auth.verifyCode(phone: "+447700900201", code: "000000")
            }
            guard case let .server(status, code, message, _) = error else {
                Issue.record("expected a server error, got \(error)")
                return
            }
            #expect((400..<500).contains(status))
            #expect(code == .wrongCode)
            #expect(error.code == code)
            #expect(!message.isEmpty)
            #expect(error.localizedDescription == message)
            #expect(!error.isOffline)
            #expect(try device.tokens.load() == nil)

            let invalid = try await #require(throws: APIError.self) {
                try await device.auth.requestCode(phone: "not a phone")
            }
            #expect(invalid.status == 400 || invalid.status == 422)
        }
    }

    @Test func withoutATokenNothingIsSent() async throws {
        let device = Device(server: unreachableServer)
        let error = try await #require(throws: APIError.self) { try await device.users.profile() }
        #expect(error == .notSignedIn)
        #expect(error.isUnauthorized)
    }

    @Test func aBadTokenIsUnauthorized() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let device = Device(server: server, tokens: .inMemory("nope"))
            let error = try await #require(throws: APIError.self) { try await device.users.profile() }
            #expect(error.status == 401)
            #expect(error.isUnauthorized)
        }
    }

    @Test func aServerThatCannotBeReachedIsOfflineNotAnAPIError() async throws {
        let device = Device(server: unreachableServer, tokens: .inMemory("token"))
        let error = try await #require(throws: APIError.self) { try await device.users.profile() }
        #expect(error.isOffline)
        #expect(error.status == nil)
        #expect(error.code == nil)
    }

    @Test func queriesArePercentEncoded() throws {
        let api = APIClient(baseURL: URL(string: "http://example.com/")!, token: { nil })
        let before = try #require(ISODate.parse("2026-11-21T09:30:00.000Z"))
        let url = api.url(Operations.listCheckIns.pathAndQuery(CheckInListQuery(before: before, limit: 5)))
        #expect(url == "http://example.com/v1/check-ins?before=2026-11-21T09:30:00.000Z&limit=5")
        #expect(Endpoint.query(["category": "a+b&c"]) == "?category=a%2Bb%26c")
        let contact = api.url(Operations.lookUpContactCode.pathAndQuery(ByCode("a/b c")))
        #expect(contact == "http://example.com/v1/contact-codes/a%2Fb%20c")
    }

    @Test func contactLinksAreReducedToTheirCode() {
        #expect(ContactClient.code(from: "lifesignal://contact/0123456789abcdef0123456789abcdef") == "0123456789abcdef0123456789abcdef")
        #expect(ContactClient.code(from: "  0123456789ABCDEF0123456789abcdef \n") == "0123456789ABCDEF0123456789abcdef")
    }
}
