import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct DependentsFeatureTests {
    nonisolated static let okLater = Fixtures.contact(1, "Ann", roles: .dependent, addedDaysAgo: 1, state: .ok, secondsLeft: 9000)
    nonisolated static let okSoon = Fixtures.contact(2, "Zed", roles: .dependent, addedDaysAgo: 5, state: .ok, secondsLeft: 600)
    nonisolated static let missed = Fixtures.contact(3, "Max", roles: .dependent, addedDaysAgo: 3, state: .nonResponsive, secondsLeft: -60)
    nonisolated static let sos = Fixtures.contact(4, "Sam", roles: .dependent, addedDaysAgo: 2, state: .alert, secondsLeft: 5000)

    @Test func loadsMostUrgentFirst() async {
        let store = TestStore(initialState: DependentsFeature.State()) {
            DependentsFeature()
        } withDependencies: {
            $0.contactClient.list = { _ in
                ContactLists(responders: [], dependents: [Self.okLater, Self.okSoon, Self.missed, Self.sos])
            }
        }
        await store.send(.list(.task)) { $0.list.isLoading = true }
        await store.receive(\.list.contactsResponse.success) {
            $0.list.isLoading = false
            $0.list.contacts = [Self.sos, Self.missed, Self.okSoon, Self.okLater]
        }
        #expect(store.state.attentionCount == 2)
    }

    @Test func loadFailureIsShown() async {
        let store = TestStore(initialState: DependentsFeature.State()) {
            DependentsFeature()
        } withDependencies: {
            $0.contactClient.list = { _ in throw Fixtures.offline }
        }
        await store.send(.list(.task)) { $0.list.isLoading = true }
        await store.receive(.list(.contactsResponse(.failure(Fixtures.offlineFailure)))) {
            $0.list.isLoading = false
            $0.list.destination = .alert(.failure(Fixtures.offlineFailure))
        }
    }

    @Test func sortByNameAndDateAdded() async {
        let store = TestStore(
            initialState: DependentsFeature.State(dependents: [Self.okLater, Self.okSoon, Self.missed, Self.sos])
        ) {
            DependentsFeature()
        }
        await store.send(.sortChanged(.name)) {
            $0.list.sort = .name
            $0.list.contacts = [Self.okLater, Self.missed, Self.sos, Self.okSoon]
        }
        await store.send(.sortChanged(.dateAdded)) {
            $0.list.sort = .dateAdded
            $0.list.contacts = [Self.okSoon, Self.missed, Self.sos, Self.okLater]
        }
    }

    @Test func pingMovesTheDependentUpThenClearMovesThemBack() async {
        let ping = Fixtures.ping(1, from: Fixtures.user.id, to: Self.okLater.id)
        let store = TestStore(initialState: DependentsFeature.State(dependents: [Self.okLater, Self.okSoon])) {
            DependentsFeature()
        } withDependencies: {
            $0.pingClient.send = { id in
                #expect(id == Self.okLater.id)
                return ping
            }
            $0.pingClient.clear = { id in #expect(id == ping.id) }
        }
        #expect(store.state.dependents.ids.elements == [Self.okSoon.id, Self.okLater.id])
        await store.send(.pingButtonTapped(Self.okLater.id)) { $0.busyIDs = [Self.okLater.id] }
        var pinged = Self.okLater
        pinged.outgoingPing = ping
        await store.receive(.pingResponse(Self.okLater.id, .success(ping))) {
            $0.busyIDs = []
            $0.list.contacts = [pinged, Self.okSoon]
        }
        // Already pinged: no second ping.
        await store.send(.pingButtonTapped(Self.okLater.id))
        await store.send(.clearPingButtonTapped(Self.okLater.id)) { $0.busyIDs = [Self.okLater.id] }
        await store.receive(.clearPingResponse(Self.okLater.id, .success(ping.id))) {
            $0.busyIDs = []
            $0.list.contacts = [Self.okSoon, Self.okLater]
        }
    }

    @Test func pingAndClearFailuresAreShown() async {
        var pinged = Self.okSoon
        pinged.outgoingPing = Fixtures.ping(2, from: Fixtures.user.id, to: Self.okSoon.id)
        let store = TestStore(initialState: DependentsFeature.State(dependents: [Self.okLater, pinged])) {
            DependentsFeature()
        } withDependencies: {
            $0.pingClient.send = { _ in throw Fixtures.serverError }
            $0.pingClient.clear = { _ in throw Fixtures.offline }
        }
        await store.send(.pingButtonTapped(Self.okLater.id)) { $0.busyIDs = [Self.okLater.id] }
        await store.receive(.pingResponse(Self.okLater.id, .failure(Fixtures.serverFailure))) {
            $0.busyIDs = []
            $0.list.destination = .alert(.failure(Fixtures.serverFailure))
        }
        await store.send(.list(.destination(.dismiss))) { $0.list.destination = nil }
        await store.send(.clearPingButtonTapped(pinged.id)) { $0.busyIDs = [pinged.id] }
        await store.receive(.clearPingResponse(pinged.id, .failure(Fixtures.offlineFailure))) {
            $0.busyIDs = []
            $0.list.destination = .alert(.failure(Fixtures.offlineFailure))
        }
        #expect(store.state.dependents[id: pinged.id]?.outgoingPing != nil)
    }

    @Test func answeringAPingInDetailsIsPassedUp() async {
        let result = Fixtures.checkInResult(CheckInID(UUID(0)), at: Fixtures.now)
        var state = DependentsFeature.State(dependents: [Self.okLater])
        state.list.destination = .contactDetails(ContactDetailsFeature.State(contact: Self.okLater))
        let store = TestStore(initialState: state) { DependentsFeature() }
        await store.send(.list(.destination(.presented(.contactDetails(.delegate(.checkedIn(result)))))))
        await store.receive(.list(.delegate(.checkedIn(result))))
        await store.receive(.delegate(.checkedIn(result)))
    }

    @Test func roleChangeInDetailsDropsThemFromTheList() async {
        var responderNow = Self.okLater
        responderNow.roles = .responder
        let store = TestStore(initialState: DependentsFeature.State(dependents: [Self.okLater, Self.okSoon])) {
            DependentsFeature()
        }
        await store.send(.list(.contactTapped(Self.okLater.id))) {
            $0.list.destination = .contactDetails(ContactDetailsFeature.State(contact: Self.okLater))
        }
        await store.send(.list(.destination(.presented(.contactDetails(.delegate(.contactChanged(responderNow))))))) {
            $0.list.contacts = [Self.okSoon]
        }
        await store.receive(.list(.delegate(.contactsChanged)))
        await store.receive(.delegate(.contactsChanged))
        await store.send(.list(.destination(.dismiss))) { $0.list.destination = nil }
    }
}
