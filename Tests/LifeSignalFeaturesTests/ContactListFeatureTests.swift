import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct ContactListFeatureTests {
    @Test func eachRoleLoadsItsOwnListAndAsksForItsOwnRole() async {
        let ann = Fixtures.contact(1, "Ann", roles: .responder)
        let bea = Fixtures.contact(2, "Bea", roles: .dependent)
        for (role, contact, roles) in [
            (ContactListFeature.Role.responders, ann, ContactRoles.responder), (.dependents, bea, .dependent),
        ] {
            let store = TestStore(initialState: ContactListFeature.State(role: role)) {
                ContactListFeature()
            } withDependencies: {
                $0.contactClient.list = { _ in ContactLists(responders: [ann], dependents: [bea]) }
            }
            await store.send(.task) { $0.isLoading = true }
            await store.receive(\.contactsResponse.success) {
                $0.isLoading = false
                $0.contacts = [contact]
            }
            await store.send(.addContactButtonTapped) {
                $0.destination = .addContact(AddContactFeature.State(roles: roles))
            }
        }
    }

    @Test func onlyADependentOpensOnTheirIncident() async {
        var both = Fixtures.contact(3, "Cy", roles: [.responder, .dependent], state: .alert, secondsLeft: -60)
        let incidentID = IncidentID(UUID(9))
        both.status?.openIncident = IncidentSummary(id: incidentID, kind: .manualAlert, openedAt: Fixtures.now)
        let responders = TestStore(initialState: ContactListFeature.State(role: .responders, contacts: [both])) {
            ContactListFeature()
        }
        await responders.send(.contactTapped(both.id)) {
            $0.destination = .contactDetails(ContactDetailsFeature.State(contact: both))
        }
        let dependents = TestStore(initialState: ContactListFeature.State(role: .dependents, contacts: [both])) {
            ContactListFeature()
        }
        await dependents.send(.contactTapped(both.id)) {
            $0.destination = .incident(IncidentFeature.State(incidentID: incidentID, personName: "Cy"))
        }
    }

    @Test func aContactWhoLeavesTheRoleLeavesTheList() async {
        let ann = Fixtures.contact(1, "Ann", roles: [.responder, .dependent])
        var dependentOnly = ann
        dependentOnly.roles = .dependent
        var state = ContactListFeature.State(role: .responders, contacts: [ann])
        state.destination = .contactDetails(ContactDetailsFeature.State(contact: ann))
        let store = TestStore(initialState: state) { ContactListFeature() }
        await store.send(.destination(.presented(.contactDetails(.delegate(.contactChanged(dependentOnly)))))) {
            $0.contacts = []
        }
        await store.receive(.delegate(.contactsChanged))
    }
}
