import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalFeatures
import LifeSignalModels
import Testing

@MainActor
struct DeviceLinksFeatureTests {
    nonisolated static let sensor = DeviceLink(
        id: DeviceLinkID(UUID(700)), name: "Kitchen motion sensor", resolvesAlerts: false, createdAt: Fixtures.now,
        lastUsedAt: Fixtures.now)
    nonisolated static let button = DeviceLink(
        id: DeviceLinkID(UUID(701)), name: "Front door button", resolvesAlerts: true, createdAt: Fixtures.now)

    @Test func listsAndRevokesOnlyALinkItKnows() async {
        let store = TestStore(initialState: DeviceLinksFeature.State()) {
            DeviceLinksFeature()
        } withDependencies: {
            $0.deviceLinkClient.links = { [Self.sensor, Self.button] }
            $0.deviceLinkClient.revoke = { id in #expect(id == Self.sensor.id) }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.linksResponse.success) {
            $0.isLoading = false
            $0.links = [Self.sensor, Self.button]
        }
        await store.send(.revokeButtonTapped(DeviceLinkID(UUID(799))))
        await store.send(.revokeButtonTapped(Self.sensor.id)) { $0.revokingIDs = [Self.sensor.id] }
        await store.receive(\.revokeResponse) {
            $0.revokingIDs = []
            $0.links = [Self.button]
        }
    }

    @Test func aNewLinkIsShownOnceAndEndsAlertsOnlyWhenSheSaysSo() async {
        let made = NewDeviceLink(link: Self.button, url: "https://lifesignal.example/d/lsd_secret")
        let store = TestStore(initialState: DeviceLinksFeature.State()) {
            DeviceLinksFeature()
        } withDependencies: {
            $0.deviceLinkClient.create = { name, resolvesAlerts in
                #expect(name == "Front door button")
                #expect(resolvesAlerts)
                return made
            }
        }
        await store.send(.createButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(message: "Give the link a name, like \"Front door button\".", reason: .invalid(field: "name"))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.binding(.set(\.name, " Front door button "))) { $0.name = " Front door button " }
        await store.send(.binding(.set(\.resolvesAlerts, true))) { $0.resolvesAlerts = true }
        await store.send(.createButtonTapped) { $0.isCreating = true }
        await store.receive(\.createResponse.success) {
            $0.isCreating = false
            $0.name = ""
            $0.resolvesAlerts = false
            $0.created = made
            $0.links = [Self.button]
        }
        await store.send(.createdDismissed) { $0.created = nil }
    }

    @Test func theEleventhIsRefusedByTheServerAndSaidPlainly() async {
        let refusal = UserFacingError(
            message: "You can have at most 10 check-in links. Revoke one you no longer use.", reason: .refused(.tooManyDeviceLinks))
        let store = TestStore(initialState: DeviceLinksFeature.State()) {
            DeviceLinksFeature()
        } withDependencies: {
            $0.deviceLinkClient.create = { _, _ in throw refusal }
        }
        await store.send(.binding(.set(\.name, "Watch"))) { $0.name = "Watch" }
        await store.send(.createButtonTapped) { $0.isCreating = true }
        await store.receive(\.createResponse.failure) {
            $0.isCreating = false
            $0.destination = .alert(.failure(refusal))
        }
    }
}
