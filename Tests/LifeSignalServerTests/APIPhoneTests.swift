import Foundation
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// The API reads numbers with libphonenumber, as the web does: a UK number sent with its trunk
/// 0 kept is the same person, never a second account.
struct APIPhoneTests {
    @Test func aTrunkZeroIsTheSameAccount() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (_, ada) = try await client.signUp(world, first: "Ada", phone: "+447700900805")
            world.clock.advance(by: 61)
            let sent = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: "+44 (0)7700 900805"))
            #expect(sent.status == .ok)
            #expect(try sent.decode(CodeRequest.self).phone == "+447700900805")
            let code = try #require(world.codes.code(for: "+447700900805"))
            let verified = try await client.call(
                Operations.verifySignInCode, json: VerifyCodeBody(phone: "+4407700900805", code: code, deviceName: "t"))
            #expect(verified.status == .created)
            let signIn = try verified.decode(TokenResponse.self)
            #expect(signIn.user.id == ada.id && !signIn.isNewUser)

            let refused = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: "07700 900805"))
            #expect(refused.status == .badRequest && refused.error?.code == .invalidPhone)
        }
    }
}
