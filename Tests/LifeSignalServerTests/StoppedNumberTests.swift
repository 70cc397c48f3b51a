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

    /// Nor a channel's proof code: adding a number that said STOP as a text channel is refused
    /// and changes nothing.
    @Test func aStoppedNumberIsNotSentAProofCode() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (_, bob) = try await phone.adaWatchedByBob()
            _ = try await phone.text(from: "+15551230009", "STOP", id: "SMstop2")
            let before = phone.fake.requests.count
            let refused = try await client.call(
                Operations.addChannel, token: bob, json: ChannelRegistration(kind: .sms, address: "+15551230009"))
            #expect(refused.status == .conflict && refused.error?.code == .codeNotSent)
            #expect(refused.error?.message.contains("Text START") == true)
            let channels = try await client.call(Operations.listChannels, token: bob).decode([LifeSignalModels.Channel].self)
            #expect(!channels.contains { $0.address == "+15551230009" })
            try await phone.deliver()
            #expect(phone.fake.requests.dropFirst(before).allSatisfy { $0.form["To"] != "+15551230009" })
        }
    }
}
