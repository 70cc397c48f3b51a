import Foundation
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A number that texted STOP is texted nothing until it says START: not even a sign-in code
/// (with no way to call instead, the request says why and what to do).
extension TelephonyTests {
    @Test func aStoppedNumberIsNotSentACodeByText() async throws {
        try await withPhone { phone in
            let client = phone.client
            _ = try await phone.adaWatchedByBob()
            _ = try await phone.text(from: Self.ada, "STOP", id: "SMstop1")
            phone.world.clock.advance(by: 120)
            let before = phone.world.codes.code(for: Self.ada)
            let refused = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: Self.ada))
            #expect(refused.status == .serviceUnavailable && refused.error?.code == .codeNotSent)
            #expect(refused.error?.message.contains("Text START") == true)
            #expect(phone.world.codes.code(for: Self.ada) == before)

            _ = try await phone.text(from: Self.ada, "START", id: "SMstart1")
            #expect(try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: Self.ada)).status == .ok)
            #expect(phone.world.codes.code(for: Self.ada) != before)
        }
    }
}
