import LifeSignalDelivery
import LifeSignalModels
import Testing

@Suite struct ChannelRegistryTests {
    @Test func findsAdaptersByKindAndNothingElse() {
        let registry = ChannelRegistry([LogChannel()])
        #expect(registry.adapter(for: .log)?.kind == .log)
        #expect(registry.adapter(for: .sms) == nil)
        #expect(registry.kinds == [.log])
    }

    @Test func logChannelReportsDelivered() async throws {
        let message = OutgoingMessage.fixture(channel: .log, address: "dev")
        let receipt = try await LogChannel().send(message)
        #expect(receipt == .delivered(providerID: "log-\(message.deliveryID)"))
    }
}
