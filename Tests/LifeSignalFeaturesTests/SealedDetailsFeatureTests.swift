import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Synchronization
import Testing

@testable import LifeSignalFeatures

@MainActor
struct SealedDetailsFeatureTests {
    nonisolated static let written = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func loadsEditsAndSavesTrimmed() async {
        let sent = Mutex<[ProfileChanges]>([])
        let store = TestStore(initialState: SealedDetailsFeature.State()) {
            SealedDetailsFeature()
        } withDependencies: {
            $0.userClient.sealedDetails = {
                sent.withLock { $0 }.last?.sealedDetails.map { SealedDetails(details: $0, updatedAt: Self.written) }
                    ?? SealedDetails(details: "", updatedAt: nil)
            }
            $0.userClient.updateProfile = { changes in
                sent.withLock { $0.append(changes) }
                return Fixtures.user
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.loadResponse.success) { $0.isLoading = false }
        await store.send(.binding(.set(\.details, "  Key under the blue pot\r\nDoor code 4711  "))) {
            $0.details = "  Key under the blue pot\r\nDoor code 4711  "
        }
        await store.send(.saveButtonTapped) { $0.isSaving = true }
        await store.receive(\.saveResponse.success) {
            $0.isSaving = false
            $0.details = "Key under the blue pot\nDoor code 4711"
            $0.updatedAt = Self.written
        }
        #expect(sent.withLock { $0 } == [ProfileChanges(sealedDetails: "Key under the blue pot\nDoor code 4711")])
    }

    @Test func tooMuchTextIsRefusedOnTheDeviceAndNothingIsSent() async {
        let store = TestStore(initialState: SealedDetailsFeature.State()) {
            SealedDetailsFeature()
        }
        let long = String(repeating: "x", count: 2001)
        await store.send(.binding(.set(\.details, long))) { $0.details = long }
        #expect(store.state.charactersLeft == -1)
        await store.send(.saveButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(message: "Sealed details can be at most 2,000 characters.", reason: .invalid(field: "sealedDetails"))))
        }
    }
}
