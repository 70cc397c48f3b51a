import Foundation
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A landline cannot receive texts: the API refuses it as a text channel, with a sentence
/// that offers a call instead, and takes it as a call channel.
@Suite struct LandlineChannelTests {
    @Test func aLandlineIsRefusedAsATextChannelAndTakenAsACall() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900031")
            let text = try await client.call(
                Operations.addChannel, token: ada, json: ChannelRegistration(kind: .sms, address: "+49 30 12345678"))
            #expect(text.status == .badRequest)
            #expect(text.error?.code == .invalidAddress)
            #expect(text.error?.message == "That number is a landline, so it can't receive texts. Add it as a phone call instead.")
            let listed = try await client.call(Operations.listChannels, token: ada).decode([Channel].self)
            #expect(listed.allSatisfy { $0.kind != .sms })

            let call = try await client.call(
                Operations.addChannel, token: ada, json: ChannelRegistration(kind: .voice, address: "+493012345678"))
            #expect(call.status == .created)
            #expect(try call.decode(Channel.self).kind == .voice)
        }
    }
}
