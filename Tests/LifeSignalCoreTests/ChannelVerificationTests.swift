import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A text, call or e-mail channel receives nothing until the code sent to it comes back, so a
/// stranger's phone or mailbox cannot be made a target.
struct ChannelVerificationTests {
    func code(in notification: LifeSignalModels.Notification) throws -> String {
        try #require(notification.title.split(separator: " ").last.map(String.init))
    }

    @Test func anEmailChannelGetsOnlyItsCodeUntilProved() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900401")
        let bob = try await world.signUp("Bob", phone: "+447700900402")
        try await world.link(responder: bob, dependent: ada)
        let mail = try await world.channels.addChannel(bob, ChannelRegistration(kind: .email, address: "bob@example.com"))
        #expect(!mail.isVerified)
        let sent = try #require(try await world.notifications(bob).first { $0.type == .channelCode })
        let codeDeliveries = try await world.notifications.deliveries(bob, notification: sent.id)
        #expect(codeDeliveries.map(\.channel) == [.email])
        #expect(codeDeliveries.map(\.address) == ["bob@example.com"])

        // Ada's drill reaches Bob by the default channel, not the unproved mailbox.
        let before = try await world.drills.runDrill(ada)
        #expect(before.recipients.first?.deliveries.map(\.channel) == [.log])

        let wrong = await #expect(throws: ServiceError.self) {
            try await world.channels.verifyChannel(bob, id: mail.id, code: "000000" == (try? code(in: sent)) ? "111111" : "000000")
        }
        #expect(wrong?.code == .wrongCode)
        // Ada cannot prove Bob's channel.
        await #expect(throws: ServiceError.self) { try await world.channels.verifyChannel(ada, id: mail.id, code: try code(in: sent)) }
        let proved = try await world.channels.verifyChannel(bob, id: mail.id, code: try code(in: sent))
        #expect(proved.isVerified)
        world.clock.advance(by: 60)
        let after = try await world.drills.runDrill(ada)
        #expect(after.recipients.first?.deliveries.map(\.channel) == [.email])
    }

    @Test func fiveWrongCodesUseItUpAndTheOwnNumberNeedsNoCode() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900403")
        let own = try await world.channels.addChannel(ada, ChannelRegistration(kind: .sms, address: "+447700900403"))
        #expect(own.isVerified)
        let other = try await world.channels.addChannel(ada, ChannelRegistration(kind: .voice, address: "+447700900499"))
        #expect(!other.isVerified)
        let sent = try #require(try await world.notifications(ada).first { $0.type == .channelCode })
        let right = try code(in: sent)
        let wrongCode = right == "000000" ? "111111" : "000000"
        for _ in 0..<5 {
            await #expect(throws: ServiceError.self) { try await world.channels.verifyChannel(ada, id: other.id, code: wrongCode) }
        }
        let usedUp = await #expect(throws: ServiceError.self) { try await world.channels.verifyChannel(ada, id: other.id, code: right) }
        #expect(usedUp?.code == .channelCodeUsedUp)
        #expect(try await world.channels.channels(ada).first { $0.id == other.id }?.isVerified == false)
    }

    @Test func codesToNewChannelsAreLimited() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900404")
        for n in 0..<5 {
            _ = try await world.channels.addChannel(ada, ChannelRegistration(kind: .sms, address: "+44770090050\(n)"))
        }
        let sixth = await #expect(throws: ServiceError.self) {
            try await world.channels.addChannel(ada, ChannelRegistration(kind: .sms, address: "+447700900509"))
        }
        #expect(sixth?.code == .tooManyChannelCodes)
        #expect(try await world.channels.channels(ada).count == 5)
    }
}
