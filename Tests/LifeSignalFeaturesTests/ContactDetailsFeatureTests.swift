import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct ContactDetailsFeatureTests {
    let both = Fixtures.contact(1, "Bob", roles: [.responder, .dependent], state: .ok)

    @Test func roleChangeIsConfirmedThenSaved() async {
        var updated = both
        updated.roles = .dependent
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: both)) {
            ContactDetailsFeature()
        } withDependencies: { [updated] in
            $0.contactClient.updateRoles = { id, roles in
                #expect(id == Fixtures.id(1))
                #expect(roles == .dependent)
                return updated
            }
        }
        await store.send(.responderToggled(false)) { $0.destination = .alert(.confirmRoleChange(.dependent, of: $0.contact)) }
        await store.send(.destination(.presented(.alert(.confirmRoleChange(.dependent))))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.rolesResponse(.success(updated))) {
            $0.isBusy = false
            $0.contact = updated
        }
        await store.receive(.delegate(.contactChanged(updated)))
    }

    @Test func droppingTheLastRoleAsksToRemove() async {
        let store = TestStore(
            initialState: ContactDetailsFeature.State(contact: Fixtures.contact(1, "Bob", roles: .dependent))
        ) {
            ContactDetailsFeature()
        } withDependencies: {
            $0.contactClient.remove = { id in #expect(id == Fixtures.id(1)) }
        }
        // Toggling on what is already on changes nothing.
        await store.send(.dependentToggled(true))
        await store.send(.dependentToggled(false)) { $0.destination = .alert(.confirmRemove($0.contact)) }
        await store.send(.destination(.presented(.alert(.confirmRemove)))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.removeResponse(.success(Fixtures.id(1)))) { $0.isBusy = false }
        await store.receive(.delegate(.contactRemoved(Fixtures.id(1))))
    }

    @Test func roleChangeFailureIsShown() async {
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: both)) {
            ContactDetailsFeature()
        } withDependencies: {
            $0.contactClient.updateRoles = { _, _ in throw Fixtures.serverError }
        }
        await store.send(.dependentToggled(false)) { $0.destination = .alert(.confirmRoleChange(.responder, of: $0.contact)) }
        await store.send(.destination(.presented(.alert(.confirmRoleChange(.responder))))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.rolesResponse(.failure(Fixtures.serverFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.contact.roles == [.responder, .dependent])
    }

    @Test func removeCancelledAndRemoveFailure() async {
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: both)) {
            ContactDetailsFeature()
        } withDependencies: {
            $0.contactClient.remove = { _ in throw Fixtures.serverError }
        }
        await store.send(.removeButtonTapped) { $0.destination = .alert(.confirmRemove($0.contact)) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.removeButtonTapped) { $0.destination = .alert(.confirmRemove($0.contact)) }
        await store.send(.destination(.presented(.alert(.confirmRemove)))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.removeResponse(.failure(Fixtures.serverFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }

    @Test func pingAndClear() async {
        let ping = Fixtures.ping(1, from: Fixtures.user.id, to: Fixtures.id(1))
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: both)) {
            ContactDetailsFeature()
        } withDependencies: {
            $0.pingClient.send = { id in
                #expect(id == Fixtures.id(1))
                return ping
            }
            $0.pingClient.clear = { id in #expect(id == ping.id) }
        }
        await store.send(.pingButtonTapped) { $0.isBusy = true }
        await store.receive(.pingResponse(.success(ping))) {
            $0.isBusy = false
            $0.contact.outgoingPing = ping
        }
        await store.receive(\.delegate.contactChanged)
        // One pending ping per pair: a second ping is not sent.
        await store.send(.pingButtonTapped)
        await store.send(.clearPingButtonTapped) { $0.isBusy = true }
        await store.receive(.clearPingResponse(.success(ping.id))) {
            $0.isBusy = false
            $0.contact.outgoingPing = nil
        }
        await store.receive(.delegate(.contactChanged(both)))
    }

    @Test func pingFailureIsShownAndResponderOnlyContactsCannotBePinged() async {
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: both)) {
            ContactDetailsFeature()
        } withDependencies: {
            $0.pingClient.send = { _ in throw Fixtures.serverError }
        }
        await store.send(.pingButtonTapped) { $0.isBusy = true }
        await store.receive(.pingResponse(.failure(Fixtures.serverFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }

        let responderOnly = TestStore(
            initialState: ContactDetailsFeature.State(contact: Fixtures.contact(2, "Cy", roles: .responder))
        ) {
            ContactDetailsFeature()
        }
        await responderOnly.send(.pingButtonTapped)
    }

    @Test func clearPingFailureKeepsThePing() async {
        var contact = both
        contact.outgoingPing = Fixtures.ping(1, from: Fixtures.user.id, to: Fixtures.id(1))
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: contact)) {
            ContactDetailsFeature()
        } withDependencies: {
            $0.pingClient.clear = { _ in throw Fixtures.serverError }
        }
        await store.send(.clearPingButtonTapped) { $0.isBusy = true }
        await store.receive(.clearPingResponse(.failure(Fixtures.serverFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.contact.outgoingPing != nil)
    }

    @Test func answeringTheirPingChecksMeIn() async {
        var contact = both
        contact.incomingPing = Fixtures.ping(2, from: Fixtures.id(1), to: Fixtures.user.id)
        let result = Fixtures.checkInResult(CheckInID(UUID(0)), at: Fixtures.now)
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: contact)) {
            ContactDetailsFeature()
        } withDependencies: { [contact] in
            $0.uuid = .incrementing
            $0.pingClient.answer = { pingID, checkInID in
                #expect(pingID == contact.incomingPing?.id)
                #expect(checkInID == CheckInID(UUID(0)))
                return result
            }
        }
        await store.send(.answerPingButtonTapped) { $0.isBusy = true }
        await store.receive(.answerPingResponse(.success(result))) {
            $0.isBusy = false
            $0.contact.incomingPing = nil
        }
        await store.receive(.delegate(.contactChanged(both)))
        await store.receive(.delegate(.checkedIn(result)))
    }

    @Test func answerFailureIsShown() async {
        var contact = both
        contact.incomingPing = Fixtures.ping(2, from: Fixtures.id(1), to: Fixtures.user.id)
        let store = TestStore(initialState: ContactDetailsFeature.State(contact: contact)) {
            ContactDetailsFeature()
        } withDependencies: {
            $0.uuid = .incrementing
            $0.pingClient.answer = { _, _ in throw Fixtures.offline }
        }
        await store.send(.answerPingButtonTapped) { $0.isBusy = true }
        await store.receive(.answerPingResponse(.failure(Fixtures.offlineFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.offlineFailure))
        }
    }

    @Test func theRemoveAlertConfirmsWithItsDestructiveButtonOnly() {
        let alert = AlertState<ContactDetailsFeature.Destination.Alert>.confirmRemove(both)
        let tap = { (button: ButtonState<ContactDetailsFeature.Destination.Alert>) in
            button.tapped(ContactDetailsFeature.Destination.Action.alert)
        }
        #expect(alert.buttons.map(\.role) == [.destructive, .cancel])
        #expect(alert.buttons.map(tap) == [.presented(.alert(.confirmRemove)), .dismiss])
    }
}
