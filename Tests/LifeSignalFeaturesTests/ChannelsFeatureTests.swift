import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct ChannelsFeatureTests {
    nonisolated static let me = UserID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    nonisolated static let created = Date(timeIntervalSince1970: 1_800_000_000)

    nonisolated static func channel(_ n: Int, _ kind: ChannelKind, _ address: String, verified: Bool) -> Channel {
        Channel(
            id: ChannelID(UUID(uuidString: "00000000-0000-0000-0000-00000000c00\(n)")!), userID: me, kind: kind,
            address: address, priority: n, createdAt: created, verifiedAt: verified ? created : nil)
    }

    @Test func listsChannelsWithoutTheAlwaysOnAppStream() async {
        let email = Self.channel(1, .email, "ada@example.com", verified: true)
        let stream = Self.channel(2, .inApp, "", verified: true)
        let store = TestStore(initialState: ChannelsFeature.State()) {
            ChannelsFeature()
        } withDependencies: {
            $0.settingsClient.channels = { [email, stream] }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.channelsResponse.success) {
            $0.isLoading = false
            $0.channels = [email]
        }
    }

    @Test func aLandlineIsTypedNationallyAddedAndProvedWithItsCode() async {
        let pending = Self.channel(3, .voice, "+442079460000", verified: false)
        let proved = Self.channel(3, .voice, "+442079460000", verified: true)
        let store = TestStore(initialState: ChannelsFeature.State()) {
            ChannelsFeature()
        } withDependencies: {
            $0.settingsClient.addChannel = { registration in
                #expect(registration == ChannelRegistration(kind: .voice, address: "+442079460000"))
                return pending
            }
            $0.settingsClient.verifyChannel = { id, code in
                #expect(id == pending.id)
                #expect(code == "123456")
                return proved
            }
        }
        await store.send(.kindSelected(.voice)) { $0.newKind = .voice }
        await store.send(.phone(.regionSelected(.unitedKingdom))) { $0.phone.region = .unitedKingdom }
        await store.send(.phone(.numberChanged("020 7946 0000"))) { $0.phone.number = "020 7946 0000" }
        await store.send(.addButtonTapped) { $0.isAdding = true }
        await store.receive(\.addResponse.success) {
            $0.isAdding = false
            $0.phone.number = ""
            $0.channels = [pending]
            $0.proving = pending
        }
        // Only digits, at most six.
        await store.send(.codeChanged("12 34-567")) { $0.code = "123456" }
        await store.send(.verifyButtonTapped) { $0.isVerifying = true }
        await store.receive(\.verifyResponse.success) {
            $0.isVerifying = false
            $0.channels = [proved]
            $0.proving = nil
            $0.code = ""
        }
    }

    @Test func badInputIsRefusedBeforeAnyRequest() async {
        // The client's test value fails the test if it is called.
        let store = TestStore(initialState: ChannelsFeature.State()) { ChannelsFeature() }
        await store.send(.phone(.numberChanged("12"))) { $0.phone.number = "12" }
        await store.send(.addButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "Enter the phone number with its country code, like +44 7700 900123.", reason: .invalid(field: "phone"))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.kindSelected(.webhook))  // not added here: nothing changes
        await store.send(.kindSelected(.email)) { $0.newKind = .email }
        await store.send(.binding(.set(\.newAddress, "not an address"))) { $0.newAddress = "not an address" }
        await store.send(.addButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "Enter one e-mail address like name@example.com.", reason: .invalid(field: "address"))))
        }
    }

    @Test func aWrongCodeKeepsTheFormAndAnUnprovedChannelCanBeProvedLater() async {
        let pending = Self.channel(4, .sms, "+15551234567", verified: false)
        let store = TestStore(initialState: ChannelsFeature.State(channels: [pending])) {
            ChannelsFeature()
        } withDependencies: {
            $0.settingsClient.verifyChannel = { _, _ in
                throw APIError.server(status: 400, code: .wrongCode, message: "That code is not right.", field: nil)
            }
        }
        await store.send(.enterCodeButtonTapped(pending.id)) { $0.proving = pending }
        await store.send(.verifyButtonTapped) {
            $0.destination = .alert(.failure(UserFacingError(message: "Enter the 6-digit code we sent.", reason: .invalid(field: "code"))))
        }
        await store.send(.codeChanged("000000")) { $0.code = "000000" }
        await store.send(.verifyButtonTapped) { $0.isVerifying = true }
        await store.receive(\.verifyResponse.failure) {
            $0.isVerifying = false
            $0.destination = .alert(.failure(UserFacingError(message: "That code is not right.", reason: .refused(.wrongCode))))
        }
        await store.send(.cancelCodeButtonTapped) {
            $0.proving = nil
            $0.code = ""
        }
    }

    @Test func removingAChannel() async {
        let email = Self.channel(1, .email, "ada@example.com", verified: true)
        let removed = LockIsolated<[ChannelID]>([])
        let store = TestStore(initialState: ChannelsFeature.State(channels: [email])) {
            ChannelsFeature()
        } withDependencies: {
            $0.settingsClient.removeChannel = { id in removed.withValue { $0.append(id) } }
        }
        await store.send(.removeButtonTapped(email.id)) { $0.removingIDs = [email.id] }
        await store.receive(\.removeResponse) {
            $0.removingIDs = []
            $0.channels = []
        }
        #expect(removed.value == [email.id])
    }
}
