import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct RespondersFeatureTests {
    nonisolated static let alice = Fixtures.contact(1, "Alice", roles: .responder)
    nonisolated static let bob = Fixtures.contact(
        2, "Bob", roles: .responder, incomingPing: Fixtures.ping(2, from: Fixtures.id(2), to: Fixtures.user.id, minutesAgo: 10))
    nonisolated static let cleo = Fixtures.contact(
        3, "Cleo", roles: .responder, incomingPing: Fixtures.ping(3, from: Fixtures.id(3), to: Fixtures.user.id, minutesAgo: 20))

    @Test func loadsWithPendingPingsFirst() async {
        let store = TestStore(initialState: RespondersFeature.State()) {
            RespondersFeature()
        } withDependencies: {
            $0.contactClient.list = { sort in
                #expect(sort == .urgency)
                return ContactLists(responders: [Self.alice, Self.bob, Self.cleo], dependents: [])
            }
        }
        await store.send(.list(.task)) { $0.list.isLoading = true }
        await store.receive(\.list.contactsResponse.success) {
            $0.list.isLoading = false
            // Oldest pending ping first, then the rest by name.
            $0.list.contacts = [Self.cleo, Self.bob, Self.alice]
        }
        #expect(store.state.pendingPingCount == 2)
    }

    @Test func loadFailureIsShown() async {
        let store = TestStore(initialState: RespondersFeature.State()) {
            RespondersFeature()
        } withDependencies: {
            $0.contactClient.list = { _ in throw Fixtures.serverError }
        }
        await store.send(.list(.task)) { $0.list.isLoading = true }
        await store.receive(.list(.contactsResponse(.failure(Fixtures.serverFailure)))) {
            $0.list.isLoading = false
            $0.list.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }

    @Test func respondToOne() async {
        let result = Fixtures.checkInResult(CheckInID(UUID(0)), at: Fixtures.now)
        let store = TestStore(initialState: RespondersFeature.State(responders: [Self.alice, Self.bob, Self.cleo])) {
            RespondersFeature()
        } withDependencies: {
            $0.uuid = .incrementing
            $0.pingClient.answer = { pingID, _ in
                #expect(pingID == Self.bob.incomingPing?.id)
                return result
            }
        }
        // Alice has no ping to answer.
        await store.send(.respondButtonTapped(Self.alice.id))
        await store.send(.respondButtonTapped(Self.bob.id)) { $0.isResponding = true }
        var answered = Self.bob
        answered.incomingPing = nil
        await store.receive(.respondResponse(Self.bob.id, .success(result))) {
            $0.isResponding = false
            $0.list.contacts = [Self.cleo, Self.alice, answered]
        }
        await store.receive(.delegate(.checkedIn(result)))
    }

    @Test func respondToAll() async {
        let result = Fixtures.checkInResult(CheckInID(UUID(0)), at: Fixtures.now)
        let store = TestStore(initialState: RespondersFeature.State(responders: [Self.alice, Self.bob, Self.cleo])) {
            RespondersFeature()
        } withDependencies: {
            $0.uuid = .incrementing
            $0.pingClient.answerAll = { checkInID in
                #expect(checkInID == CheckInID(UUID(0)))
                return result
            }
        }
        await store.send(.respondToAllButtonTapped) { $0.isResponding = true }
        await store.receive(.respondResponse(nil, .success(result))) {
            $0.isResponding = false
            $0.list.contacts[id: Self.bob.id]?.incomingPing = nil
            $0.list.contacts[id: Self.cleo.id]?.incomingPing = nil
            $0.list.contacts.sort { $0.firstName < $1.firstName }
        }
        await store.receive(.delegate(.checkedIn(result)))
        #expect(store.state.pendingPingCount == 0)
        // Nothing left to answer.
        await store.send(.respondToAllButtonTapped)
    }

    @Test func respondFailureIsShown() async {
        let store = TestStore(initialState: RespondersFeature.State(responders: [Self.bob])) {
            RespondersFeature()
        } withDependencies: {
            $0.uuid = .incrementing
            $0.pingClient.answerAll = { _ in throw Fixtures.serverError }
        }
        await store.send(.respondToAllButtonTapped) { $0.isResponding = true }
        await store.receive(.respondResponse(nil, .failure(Fixtures.serverFailure))) {
            $0.isResponding = false
            $0.list.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.pendingPingCount == 1)
    }

    @Test func contactDetailsRemovalUpdatesTheList() async {
        let store = TestStore(initialState: RespondersFeature.State(responders: [Self.alice, Self.bob])) {
            RespondersFeature()
        } withDependencies: {
            $0.contactClient.remove = { _ in }
        }
        await store.send(.list(.contactTapped(Self.alice.id))) {
            $0.list.destination = .contactDetails(ContactDetailsFeature.State(contact: Self.alice))
        }
        await store.send(.list(.destination(.presented(.contactDetails(.removeButtonTapped))))) {
            $0.list.destination = .contactDetails(
                {
                    var s = ContactDetailsFeature.State(contact: Self.alice); s.destination = .alert(.confirmRemove(Self.alice)); return s
                }())
        }
        await store.send(.list(.destination(.presented(.contactDetails(.destination(.presented(.alert(.confirmRemove)))))))) {
            $0.list.destination = .contactDetails(
                {
                    var s = ContactDetailsFeature.State(contact: Self.alice); s.isBusy = true; return s
                }())
        }
        await store.receive(\.list.destination.contactDetails.removeResponse.success) {
            $0.list.destination = .contactDetails(ContactDetailsFeature.State(contact: Self.alice))
        }
        await store.receive(\.list.destination.contactDetails.delegate.contactRemoved) {
            $0.list.destination = nil
            $0.list.contacts = [Self.bob]
        }
        await store.receive(.list(.delegate(.contactsChanged)))
        await store.receive(.delegate(.contactsChanged))
    }

    @Test func askingSomeoneToBeAResponder() async {
        let request = Fixtures.request(4, to: "Dana", roles: .responder)
        let store = TestStore(initialState: RespondersFeature.State(responders: [Self.alice])) {
            RespondersFeature()
        }
        await store.send(.list(.addContactButtonTapped)) {
            $0.list.destination = .addContact(AddContactFeature.State(roles: .responder))
        }
        // Dana joins the list only once she accepts.
        await store.send(.list(.destination(.presented(.addContact(.delegate(.requestSent(request))))))) {
            $0.list.destination = nil
            $0.list.sentRequest = request
        }
        await store.send(.list(.addContactButtonTapped)) {
            $0.list.destination = .addContact(AddContactFeature.State(roles: .responder))
        }
        await store.send(.list(.destination(.presented(.addContact(.cancelButtonTapped)))))
        await store.receive(.list(.destination(.presented(.addContact(.delegate(.cancelled)))))) {
            $0.list.destination = nil
        }
    }
}
