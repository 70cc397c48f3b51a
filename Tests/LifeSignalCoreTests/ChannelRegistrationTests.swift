import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Channel addresses are checked per kind at registration; nothing is stored on bad input.
@Suite("Channel registration")
struct ChannelRegistrationTests {
    @Test func badAddressesAreRefusedWithTheFieldAndNothingIsStored() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900301")
        let refused: [ChannelRegistration] = [
            .init(kind: .email, address: "ada@example.com\r\nBcc: everyone@example.com"),
            .init(kind: .email, address: "ada@example.com, bob@example.com"),
            .init(kind: .webhook, address: "http://127.1:8080/hook"),
            .init(kind: .webhook, address: "https://0177.0.0.1/hook"),
            .init(kind: .webhook, address: "https://[::ffff:127.0.0.1]/hook"),
            .init(kind: .webhook, address: "https://169.254.169.254/latest/meta-data"),
            .init(kind: .webhook, address: "https://hooks.localhost/x"),
            .init(kind: .webhook, address: "https://user:secret@hooks.example.com/x"),
            .init(kind: .webhook, address: "http://hooks.example.com/x"),
            .init(kind: .sms, address: "+44 7700\n900123"),
            .init(kind: .apns, address: "not-a-token"),
            .init(kind: .webPush, address: #"{"endpoint":"https://10.0.0.1/push","keys":{"p256dh":"x","auth":"y"}}"#),
        ]
        for registration in refused {
            let error = await #expect(throws: ServiceError.self, "\(registration.address)") {
                try await world.channels.addChannel(ada, registration)
            }
            #expect(error?.kind == .invalid)
            #expect(error?.field == "address")
        }
        #expect(try await world.channels.channels(ada).isEmpty)

        let webhook = try await world.channels.addChannel(ada, .init(kind: .webhook, address: "https://hooks.example.com/t/abc"))
        #expect(webhook.address == "https://hooks.example.com/t/abc")
        #expect(try await world.channels.channels(ada).map(\.kind) == [.webhook])
    }

    /// A log channel writes to the server's log and reaches nobody: outside development it
    /// would look like a way to be told that tells no one.
    @Test func aLogChannelIsForDevelopmentOnly() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900303")
        let error = await #expect(throws: ServiceError.self) {
            try await world.channels.addChannel(ada, .init(kind: .log, address: "desk"))
        }
        #expect(error?.field == "kind")
        #expect(try await world.channels.channels(ada).isEmpty)

        var development = ServiceConfiguration()
        development.allowsLogChannels = true
        let dev = try await TestWorld(configuration: development)
        let bob = try await dev.signUp("Bob", phone: "+447700900304")
        #expect(try await dev.channels.addChannel(bob, .init(kind: .log, address: "desk")).kind == .log)
    }

    @Test func theTestOptOutAcceptsAFakeOnLoopback() async throws {
        var configuration = ServiceConfiguration()
        configuration.channelAddresses = .localTesting
        let world = try await TestWorld(configuration: configuration)
        let ada = try await world.signUp("Ada", phone: "+447700900302")
        let channel = try await world.channels.addChannel(ada, .init(kind: .webhook, address: "http://127.0.0.1:9/hook"))
        #expect(channel.address == "http://127.0.0.1:9/hook")
    }
}
