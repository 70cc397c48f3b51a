import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A text, call or e-mail channel receives nothing until the code sent to it comes back, so a
/// stranger's phone or mailbox cannot be made a target.
struct ChannelVerificationTests {
    typealias Courier = HelpIsComingTests.Courier

    @Test func anEmailChannelGetsOnlyItsCodeUntilProved() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900401")
        let bob = try await world.signUp("Bob", phone: "+447700900402")
        try await world.link(responder: bob, dependent: ada)
        let mail = try await world.channels.addChannel(bob, ChannelRegistration(kind: .email, address: "bob@example.com"))
        #expect(!mail.isVerified)
        let code = try #require(world.channelCode(for: "bob@example.com"))
        let codeDeliveries = try await Courier(world).deliver(.sent(providerID: nil)) { $0.message.kind == .channelCode }
        #expect(codeDeliveries.map(\.message.channel) == [.email])
        #expect(codeDeliveries.map(\.message.address) == ["bob@example.com"])
        #expect(codeDeliveries.map(\.message.recipientID) == [bob.user.id])

        // Ada's drill reaches Bob by the default channel, not the unproved mailbox.
        let before = try await world.drills.runDrill(ada)
        #expect(before.recipients.first?.deliveries.map(\.channel) == [.log])

        let wrong = await #expect(throws: ServiceError.self) {
            try await world.channels.verifyChannel(bob, id: mail.id, code: code == "000000" ? "111111" : "000000")
        }
        #expect(wrong?.code == .wrongCode)
        // Ada cannot prove Bob's channel.
        await #expect(throws: ServiceError.self) { try await world.channels.verifyChannel(ada, id: mail.id, code: code) }
        let proved = try await world.channels.verifyChannel(bob, id: mail.id, code: code)
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
        let right = try #require(world.channelCode(for: "+447700900499"))
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

    @Test func aProofCodeGoesToItsChannelAndNowhereElse() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900405")
        let live = try world.core.events.subscribe(ada.user.id, configuration: ServiceConfiguration())
        let channel = try await world.channels.addChannel(ada, ChannelRegistration(kind: .sms, address: "+447700900567"))
        let code = try #require(world.channelCode(for: channel.address))
        // A check-in after it: its status event closes what the stream carried meanwhile.
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        var streamed: [LiveEvent] = []
        for await event in live {
            streamed.append(event)
            if case .status = event { break }
        }

        let encoder = JSONEncoder()
        func leaks(_ json: Data) -> Bool {
            let text = String(decoding: json, as: UTF8.self)
            return text.contains("Your LifeSignal code") || text.contains(" \(code)") || text.contains("\(code) ")
                || text.contains("\"\(code)\"")
        }
        // Not in the notification history, nor counted unread.
        let history = try await world.notifications(ada)
        #expect(history.allSatisfy { $0.type != .channelCode })
        #expect(!leaks(try encoder.encode(history)))
        let page = try await world.notifications.notifications(ada, category: nil, unreadOnly: false, before: nil, limit: 100)
        #expect(page.unreadCount == history.filter { !$0.isRead }.count)
        // Not on the live stream.
        #expect(!streamed.isEmpty)
        #expect(!leaks(try encoder.encode(streamed)))
        // The timeline says where it went, not what it was.
        let timeline = try await world.timeline.timeline(ada)
        #expect(timeline.contains { $0.summary == "Proof code sent to the text number ending 67" })
        #expect(!leaks(try encoder.encode(timeline)))
        // It went to the number being proved, alone.
        let sent = try await Courier(world).deliver(.sent(providerID: nil)) { $0.message.kind == .channelCode }
        #expect(sent.map(\.message.address) == ["+447700900567"])
        #expect(sent.first?.message.title.hasSuffix(code) == true)
        // Once sent, the row the message was built from no longer holds the code.
        let sentID = try #require(sent.first?.message.notificationID)
        let row = try #require(try await world.store.read { try await $0.notifications.notification(sentID) })
        #expect(!leaks(try encoder.encode(row)))
        #expect(row.type == .channelCode)
    }
}
