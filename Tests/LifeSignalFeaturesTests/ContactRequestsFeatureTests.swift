import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct ContactRequestsFeatureTests {
    /// Bob asks to watch over me; I asked Cy to watch over me.
    nonisolated static let fromBob = Fixtures.request(1, to: "Ada", roles: .dependent, from: 2)
    nonisolated static let toCy = Fixtures.request(3, to: "Cy", roles: .responder)

    @Test func loadsBothLists() async {
        let store = TestStore(initialState: ContactRequestsFeature.State()) {
            ContactRequestsFeature()
        } withDependencies: {
            $0.contactClient.requests = { ContactRequestLists(incoming: [Self.fromBob], outgoing: [Self.toCy]) }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.requestsResponse.success) {
            $0.isLoading = false
            $0.incoming = [Self.fromBob]
            $0.outgoing = [Self.toCy]
        }
        #expect(store.state.pendingIncomingCount == 1)
    }

    @Test func acceptingTellsTheParent() async {
        let bob = Fixtures.contact(2, "Bob", roles: .responder)
        let store = TestStore(initialState: ContactRequestsFeature.State(incoming: [Self.fromBob])) {
            ContactRequestsFeature()
        } withDependencies: {
            $0.contactClient.acceptRequest = { id, _ in
                #expect(id == Self.fromBob.id)
                return bob
            }
        }
        await store.send(.acceptButtonTapped(Self.fromBob.id)) { $0.busyIDs = [Self.fromBob.id] }
        await store.receive(.acceptResponse(Self.fromBob.id, .success(bob))) {
            $0.busyIDs = []
            $0.incoming[id: Self.fromBob.id]?.state = .accepted
        }
        await store.receive(.delegate(.contactAccepted(bob)))
        #expect(store.state.pendingIncomingCount == 0)
        // An answered request cannot be accepted again.
        await store.send(.acceptButtonTapped(Self.fromBob.id))
    }

    @Test func decliningAndWithdrawing() async {
        var declined = Self.fromBob
        declined.state = .declined
        var withdrawn = Self.toCy
        withdrawn.state = .cancelled
        let store = TestStore(initialState: ContactRequestsFeature.State(incoming: [Self.fromBob], outgoing: [Self.toCy])) {
            ContactRequestsFeature()
        } withDependencies: {
            $0.contactClient.declineRequest = { [declined, withdrawn] id in id == Self.fromBob.id ? declined : withdrawn }
        }
        await store.send(.declineButtonTapped(Self.fromBob.id)) { $0.busyIDs = [Self.fromBob.id] }
        await store.receive(.declineResponse(Self.fromBob.id, .success(declined))) {
            $0.busyIDs = []
            $0.incoming = [declined]
        }
        await store.send(.declineButtonTapped(Self.toCy.id)) { $0.busyIDs = [Self.toCy.id] }
        await store.receive(.declineResponse(Self.toCy.id, .success(withdrawn))) {
            $0.busyIDs = []
            $0.outgoing = [withdrawn]
        }
    }

    @Test func aFailedAnswerIsShownAndCanBeRetried() async {
        let store = TestStore(initialState: ContactRequestsFeature.State(incoming: [Self.fromBob])) {
            ContactRequestsFeature()
        } withDependencies: {
            $0.contactClient.acceptRequest = { _, _ in throw Fixtures.offline }
        }
        await store.send(.acceptButtonTapped(Self.fromBob.id)) { $0.busyIDs = [Self.fromBob.id] }
        await store.receive(.acceptResponse(Self.fromBob.id, .failure(Fixtures.offlineFailure))) {
            $0.busyIDs = []
            $0.destination = .alert(.failure(Fixtures.offlineFailure))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        #expect(store.state.incoming[id: Self.fromBob.id]?.isPending == true)
    }
}
