import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalServer
import LifeSignalTestSupport
import NIOCore
import Testing

/// What only the server tests add to the one world (`TestWorld`): calls of the operation table
/// through a test client, and people and links made over the API.
struct APIResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data

    func decode<T: Decodable>(_: T.Type = T.self) throws -> T { try APICoding.decoder.decode(T.self, from: body) }

    var error: APIErrorEnvelope.Body? { try? decode(APIErrorEnvelope.self).error }
}

extension TestClientProtocol {
    /// Calls an operation of the table with a JSON body (or raw bytes) and a token.
    func call(
        _ operation: any OperationDescription, _ parameters: [String: String] = [:], query: String = "", token: String? = nil,
        json: (any Encodable)? = nil, raw: String? = nil, bytes: [UInt8]? = nil
    ) async throws -> APIResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(bytes: try APICoding.encoder.encode(json))
        } else if let raw {
            headers[.contentType] = "application/json"
            body = ByteBuffer(string: raw)
        } else if let bytes {
            body = ByteBuffer(bytes: bytes)
        }
        return try await execute(
            uri: operation.path(parameters) + query, method: HTTPRequest.Method(rawValue: operation.method.rawValue)!,
            headers: headers, body: body
        ) { response in
            APIResponse(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }

    /// Signs up through the API and returns the token and user.
    func signUp(_ world: TestWorld, first: String, phone: String) async throws -> (token: String, user: User) {
        let sent = try await call(Operations.requestSignInCode, json: PhoneBody(phone: phone))
        #expect(sent.status == .ok)
        let code = world.codes.code(for: phone)!
        let verified = try await call(Operations.verifySignInCode, json: VerifyCodeBody(phone: phone, code: code, deviceName: "tests"))
        #expect(verified.status == .created)
        let token = try verified.decode(TokenResponse.self).token
        let profile = try await call(
            Operations.updateProfile, token: token, json: ProfileChanges(firstName: first, lastName: "Tester"))
        #expect(profile.status == .ok)
        return (token, try profile.decode(User.self))
    }

    /// Adds a channel and proves it with the code it was sent (which the tests' code sender shows).
    func addProvedChannel(_ world: TestWorld, _ token: String, _ registration: ChannelRegistration) async throws {
        let added = try await call(Operations.addChannel, token: token, json: registration)
        #expect(added.status == .created)
        let channel = try added.decode(Channel.self)
        guard !channel.isVerified else { return }
        let code = world.channelCode(for: channel.address) ?? ""
        let proved = try await call(
            Operations.verifyChannel, ["id": channel.id.description], token: token, json: ChannelCodeBody(code: code))
        #expect(proved.status == .ok)
        #expect(try proved.decode(Channel.self).isVerified)
    }

    /// Makes `responder` a responder of `dependent` the way people do it: the dependent asks
    /// with the responder's code (202), the responder accepts (200).
    func link(responder: String, dependent: String) async throws {
        let code = try await call(Operations.getContactCode, token: responder).decode(ContactCode.self)
        let asked = try await call(Operations.addContact, token: dependent, json: AddContactBody(code: code.code, roles: .responder))
        #expect(asked.status == .accepted)
        let request = try asked.decode(ContactRequest.self)
        let accepted = try await call(
            Operations.acceptContactRequest, ["id": request.id.description], token: responder, json: RolesBody(roles: request.roles))
        #expect(accepted.status == .ok)
    }
}
