import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Synchronization
import Testing

@testable import LifeSignalFeatures

@MainActor
struct DailyCallSetupFeatureTests {
    nonisolated static let mia = DailyCallSetup(
        id: DailyCallSetupID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!), personID: Fixtures.user.id,
        requestedBy: Fixtures.user.id, name: "Mia Becker", phone: "+15551234599", time: "09:30", timeZone: "Europe/Berlin",
        status: .pending, tries: 0, nextCallAt: Fixtures.now, createdAt: Fixtures.now)

    @Test func asksForHerMotherAndTakesItBack() async {
        let asked = Mutex<[String]>([])
        let store = TestStore(initialState: DailyCallSetupFeature.State(timeZone: "Europe/Berlin")) {
            DailyCallSetupFeature()
        } withDependencies: {
            $0.dailyCallClient.list = { [] }
            $0.dailyCallClient.setUp = { first, last, phone, time, zone in
                asked.withLock { $0.append("\(first)|\(last)|\(phone)|\(time)|\(zone)") }
                return Self.mia
            }
            $0.dailyCallClient.cancel = { _ in
                var cancelled = Self.mia
                cancelled.status = .cancelled
                cancelled.personID = nil
                return cancelled
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.listResponse.success) { $0.isLoading = false }
        #expect(!store.state.canSave)
        // Nothing is sent without her first name and number.
        await store.send(.saveButtonTapped)
        await store.send(.binding(.set(\.firstName, " Mia "))) { $0.firstName = " Mia " }
        await store.send(.binding(.set(\.lastName, "Becker"))) { $0.lastName = "Becker" }
        await store.send(.binding(.set(\.phone, "+15551234599"))) { $0.phone = "+15551234599" }
        await store.send(.binding(.set(\.time, "09:30"))) { $0.time = "09:30" }
        await store.send(.saveButtonTapped) { $0.isSaving = true }
        await store.receive(\.saveResponse.success) {
            $0.isSaving = false
            $0.setups = [Self.mia]
            $0.firstName = ""
            $0.lastName = ""
            $0.phone = ""
        }
        #expect(asked.withLock { $0 } == ["Mia|Becker|+15551234599|09:30|Europe/Berlin"])
        await store.send(.cancelTapped(Self.mia.id))
        await store.receive(\.cancelResponse.success) {
            $0.setups[0].status = .cancelled
            $0.setups[0].personID = nil
        }
    }

    @Test func aRefusalIsShownAndTheFormKept() async {
        let store = TestStore(
            initialState: {
                var state = DailyCallSetupFeature.State(timeZone: "Europe/Berlin")
                state.firstName = "Bob"
                state.phone = "+15551230002"
                return state
            }()
        ) {
            DailyCallSetupFeature()
        } withDependencies: {
            $0.dailyCallClient.setUp = { _, _, _, _, _ in throw Fixtures.serverError }
        }
        await store.send(.saveButtonTapped) { $0.isSaving = true }
        await store.receive(\.saveResponse.failure) {
            $0.isSaving = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.firstName == "Bob")
    }
}
