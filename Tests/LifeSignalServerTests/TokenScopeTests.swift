import Foundation
import HTTPTypes
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Every `/v1` operation that needs a caller, called with each kind of credential. What a
/// credential may do is decided in the core (a check-in token can never become the `Caller`
/// the other use cases ask for), so this table holds whatever door a request comes through.
@Suite("Token scopes")
struct TokenScopeTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case signIn = "sign-in"
        case fullToken = "full token"
        case checkInToken = "check-in token"
        case expired = "expired token"
        case revoked = "revoked token"

        var testDescription: String { rawValue }
    }

    /// What an operation asks of its caller.
    enum Needs {
        /// Any live credential: checking in and reading one's own status.
        case anyToken
        /// A sign-in or a full token.
        case full
        /// A sign-in on a device, never a token: making tokens, ending other sessions, the
        /// account's number and the account itself.
        case signIn
    }

    static func needs(_ operation: any OperationDescription) -> Needs {
        switch operation.id {
        case Operations.checkIn.id, Operations.getStatus.id: .anyToken
        case Operations.createAPIToken.id, Operations.revokeSession.id, Operations.requestPhoneChange.id,
            Operations.deleteAccount.id:
            .signIn
        default: .full
        }
    }

    /// Allowed, refused for scope (403 `token_scope`), refused for want of a sign-in (403
    /// `sign_in_again`), or not signed in at all (401).
    enum Outcome: String, Equatable, CustomStringConvertible {
        case allowed, tokenScope = "token_scope", signInAgain = "sign_in_again", unauthorized
        var description: String { rawValue }
    }

    static func expected(_ kind: Kind, _ needs: Needs) -> Outcome {
        switch (kind, needs) {
        case (.expired, _), (.revoked, _): .unauthorized
        case (.checkInToken, .anyToken): .allowed
        case (.checkInToken, _): .tokenScope
        case (.fullToken, .signIn): .signInAgain
        default: .allowed
        }
    }

    /// A body the operation would take: the sign-in-only ones must get past decoding to show
    /// their refusal; for the rest an empty object is enough.
    static func body(_ operation: any OperationDescription) -> String {
        switch operation.id {
        case Operations.createAPIToken.id: #"{"name":"more"}"#
        case Operations.requestPhoneChange.id: #"{"phone":"+447700900899"}"#
        default: "{}"
        }
    }

    static func outcome(_ response: APIResponse) -> Outcome {
        if response.status == .unauthorized { return .unauthorized }
        switch response.error?.code {
        case .tokenScope?: return .tokenScope
        case .signInAgain?: return .signInAgain
        default: return .allowed
        }
    }

    @Test("every operation × credential", arguments: Kind.allCases)
    func table(_ kind: Kind) async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (signIn, _) = try await client.signUp(world, first: "Ada", phone: "+447700900801")
            func token(_ scope: Session.Scope, expiresAt: Date? = nil) async throws -> TokenResponse {
                try await client.call(
                    Operations.createAPIToken, token: signIn, json: TokenNameBody(name: "t", scope: scope, expiresAt: expiresAt)
                ).decode(TokenResponse.self)
            }
            let credential: String
            switch kind {
            case .signIn: credential = signIn
            case .fullToken: credential = try await token(.full).token
            case .checkInToken: credential = try await token(.checkIn).token
            case .expired:
                credential = try await token(.full, expiresAt: world.clock.now.addingTimeInterval(3600)).token
                world.clock.advance(by: 2 * 3600)
            case .revoked:
                let made = try await token(.full)
                #expect(
                    try await client.call(Operations.revokeSession, ["id": made.session.id.description], token: signIn).status
                        == .noContent)
                credential = made.token
            }
            #expect(kind == .signIn || credential.hasPrefix(Accounts.tokenPrefix(.apiToken)))

            // Ending the session or the account comes last, so it cannot change the rows before.
            let last = [Operations.deleteAccount.id, Operations.signOut.id]
            let operations =
                Operations.all.filter { $0.requiresAuth && !last.contains($0.id) }
                + last.compactMap { id in Operations.all.first { $0.id == id } }
            var mismatches: [String] = []
            for operation in operations {
                // A stream an allowed caller opens never ends: only its refusals are read.
                if operation.id == Operations.streamEvents.id, Self.expected(kind, .full) == .allowed { continue }
                var parameters: [String: String] = [:]
                for name in operation.path.split(separator: "{").dropFirst().compactMap({ $0.split(separator: "}").first }) {
                    parameters[String(name)] = UUID().uuidString
                }
                let needs = Self.needs(operation)
                let response = try await client.call(operation, parameters, token: credential, raw: Self.body(operation))
                let got = Self.outcome(response)
                var want = Self.expected(kind, needs)
                // The sign-in deleted the account just before: nothing is left to sign out of.
                if kind == .signIn, operation.id == Operations.signOut.id { want = .unauthorized }
                if got != want { mismatches.append("\(operation.id): \(got), expected \(want) (\(response.status.code))") }
            }
            #expect(mismatches.isEmpty, "\(kind): \(mismatches)")
        }
    }

    /// Deleting the account needs a sign-in less than an hour old (the table deletes with a
    /// fresh one).
    @Test func deletingTheAccountNeedsARecentSignIn() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900802")
            world.clock.advance(by: 2 * 3600)
            let stale = try await client.call(Operations.deleteAccount, token: ada)
            #expect(stale.status == .forbidden && stale.error?.code == .signInAgain)
            #expect(try await client.call(Operations.getProfile, token: ada).status == .ok)
            let (fresh, _) = try await client.signUp(world, first: "Ada", phone: "+447700900802")
            #expect(try await client.call(Operations.deleteAccount, token: fresh).status == .noContent)
        }
    }

    /// The web opens only for a sign-in: an API token of any scope pasted into the session
    /// cookie is no session (the cookie is cleared and the page asks to sign in).
    @Test func theWebOpensOnlyForASignIn() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900803")
            for scope in Session.Scope.allCases {
                let token = try await client.call(
                    Operations.createAPIToken, token: ada, json: TokenNameBody(name: "watch", scope: scope)
                ).decode(TokenResponse.self).token
                let (status, location, cookies) = try await client.execute(
                    uri: "/settings", method: .get, headers: [.cookie: "ls_session=\(token)"]
                ) { ($0.status, $0.headers[.location], $0.headers[values: .setCookie]) }
                #expect(status == .seeOther || status == .found, "\(scope)")
                #expect(location == "/signin", "\(scope)")
                #expect(cookies.contains { $0.hasPrefix("ls_session=;") && $0.contains("Max-Age=0") }, "\(scope): \(cookies)")
            }
            let page = try await client.execute(uri: "/settings", method: .get, headers: [.cookie: "ls_session=\(ada)"]) { $0.status }
            #expect(page == .ok)
        }
    }
}
