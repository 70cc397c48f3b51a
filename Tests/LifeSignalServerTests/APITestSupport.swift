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
    /// `parameters` and `query` are raw texts, so that a test can send what no typed caller
    /// could (a malformed id, an unknown query value); `url`, when given, is the whole path
    /// and query, and `parameters` and `query` are not used.
    func call(
        _ operation: any OperationDescription, _ parameters: [String: String] = [:], query: String = "", url: String? = nil,
        token: String? = nil, json: (any Encodable)? = nil, raw: String? = nil, bytes: [UInt8]? = nil
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
            uri: url ?? operation.path(parameters) + query, method: HTTPRequest.Method(rawValue: operation.method.rawValue)!,
            headers: headers, body: body
        ) { response in
            APIResponse(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }

    /// Calls an operation the way its types say: `body` must be the operation's `Body` (the
    /// compiler checks it), the answer must have the documented success status, and it comes
    /// back decoded as the operation's `Response`. Any other answer throws, with its error.
    func send<Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<NoInput, Body, Response>, _ body: Body, token: String? = nil
    ) async throws -> Response {
        try await call(operation, token: token, json: body).expecting(operation)
    }

    /// The typed call above for an operation that also takes an input in its path or query,
    /// which must be the operation's `Input`.
    func send<Input: OperationInput, Body: Encodable & Sendable, Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<Input, Body, Response>, _ input: Input, _ body: Body, token: String? = nil
    ) async throws -> Response {
        try await call(operation, url: operation.pathAndQuery(input), token: token, json: body).expecting(operation)
    }

    /// The typed call above for an operation that takes nothing.
    func send<Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<NoInput, NoBody, Response>, token: String? = nil
    ) async throws -> Response {
        try await call(operation, token: token).expecting(operation)
    }

    /// The typed call above for an operation that takes only an input in its path or query.
    func send<Input: OperationInput, Response: Decodable & Sendable>(
        _ operation: LifeSignalAPI.Operation<Input, NoBody, Response>, _ input: Input, token: String? = nil
    ) async throws -> Response {
        try await call(operation, url: operation.pathAndQuery(input), token: token).expecting(operation)
    }

    /// Signs up through the API and returns the token and user.
    func signUp(_ world: TestWorld, first: String, phone: String) async throws -> (token: String, user: User) {
        _ = try await send(Operations.requestSignInCode, SignInCodeBody(phone: phone))
        let code = world.codes.code(for: phone)!
        let token = try await send(Operations.verifySignInCode, VerifyCodeBody(phone: phone, code: code, deviceName: "tests")).token
        let user = try await send(Operations.updateProfile, ProfileChanges(firstName: first, lastName: "Tester"), token: token)
        return (token, user)
    }

    /// Adds a channel and proves it with the code it was sent (which the tests' code sender shows).
    func addProvedChannel(_ world: TestWorld, _ token: String, _ registration: ChannelRegistration) async throws {
        let channel = try await send(Operations.addChannel, registration, token: token)
        guard !channel.isVerified else { return }
        let code = world.channelCode(for: channel.address) ?? ""
        let proved = try await send(Operations.verifyChannel, ByID(channel.id), ChannelCodeBody(code: code), token: token)
        #expect(proved.isVerified)
    }

    /// Makes `responder` a responder of `dependent` the way people do it: the dependent asks
    /// with the responder's code (202), the responder accepts (200).
    func link(responder: String, dependent: String) async throws {
        let code = try await send(Operations.getContactCode, token: responder)
        let request = try await send(Operations.addContact, AddContactBody(code: code.code, roles: .responder), token: dependent)
        _ = try await send(Operations.acceptContactRequest, ByID(request.id), RolesBody(roles: request.roles), token: responder)
    }
}

/// An answer that was not the operation's documented success.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    var operation: String
    var status: HTTPResponse.Status
    var error: APIErrorEnvelope.Body?

    var description: String {
        "\(operation) answered \(status.code)" + (error.map { ": \($0.code) \($0.message)" } ?? "")
    }
}

extension APIResponse {
    /// The body as the operation's `Response`, if the status is the documented success.
    func expecting<Input, Body, Response: Decodable>(_ operation: LifeSignalAPI.Operation<Input, Body, Response>) throws -> Response {
        guard status.code == operation.status else {
            throw UnexpectedAnswer(operation: operation.description, status: status, error: error)
        }
        return try decode(Response.self)
    }
}
