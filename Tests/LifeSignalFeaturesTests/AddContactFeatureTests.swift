import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct AddContactFeatureTests {
    let code = "fedcba9876543210fedcba9876543210"
    let preview = ContactPreview(userID: Fixtures.id(5), firstName: "Eve", lastName: "Test")

    @Test func lookUpPreviewChooseRolesAndSendARequest() async {
        let added = Fixtures.request(5, to: "Eve", roles: [.responder, .dependent])
        let store = TestStore(initialState: AddContactFeature.State()) {
            AddContactFeature()
        } withDependencies: { [code, preview] in
            $0.contactClient.lookUp = { input in
                #expect(input == code)
                return preview
            }
            $0.contactClient.add = { input, roles in
                #expect(input == code)
                #expect(roles == [.responder, .dependent])
                return added
            }
        }
        await store.send(.codeInputChanged("FEDC BA98 7654 3210 FEDC BA98 7654 3210")) {
            $0.codeInput = "FEDC BA98 7654 3210 FEDC BA98 7654 3210"
        }
        await store.send(.lookUpButtonTapped) {
            $0.code = self.code
            $0.isLookingUp = true
        }
        await store.receive(.lookUpResponse(.success(preview))) {
            $0.isLookingUp = false
            $0.preview = self.preview
        }
        await store.send(.dependentToggled(true)) { $0.roles = [.responder, .dependent] }
        await store.send(.addButtonTapped) { $0.isAdding = true }
        await store.receive(.addResponse(.success(added))) { $0.isAdding = false }
        await store.receive(.delegate(.requestSent(added)))
    }

    /// Editing the code while it is looked up drops that lookup: its answer would show a person
    /// for a code she no longer typed, with Add offered and doing nothing.
    @Test func editingTheCodeDropsTheLookupOnItsWay() async {
        let clock = TestClock()
        let store = TestStore(initialState: AddContactFeature.State(codeInput: code)) {
            AddContactFeature()
        } withDependencies: { [preview] in
            $0.contactClient.lookUp = { _ in
                try await clock.sleep(for: .seconds(1))
                return preview
            }
        }
        await store.send(.lookUpButtonTapped) {
            $0.code = self.code
            $0.isLookingUp = true
        }
        await store.send(.codeInputChanged("fedc")) {
            $0.codeInput = "fedc"
            $0.code = nil
            $0.isLookingUp = false
        }
        await clock.advance(by: .seconds(1))
        await store.finish()
        #expect(store.state.preview == nil && !store.state.canAdd)
    }

    @Test func openingALinkLooksItUp() async {
        let store = TestStore(initialState: AddContactFeature.State()) {
            AddContactFeature()
        } withDependencies: { [preview] in
            $0.contactClient.lookUp = { _ in preview }
        }
        await store.send(.linkOpened("lifesignal://contact/\(code)")) {
            $0.codeInput = "lifesignal://contact/\(self.code)"
            $0.code = self.code
            $0.isLookingUp = true
        }
        await store.receive(.lookUpResponse(.success(preview))) {
            $0.isLookingUp = false
            $0.preview = self.preview
        }
    }

    @Test func malformedCodeIsRejectedWithoutARequest() async {
        let store = TestStore(initialState: AddContactFeature.State(codeInput: "not a code")) {
            AddContactFeature()
        }
        await store.send(.lookUpButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "That is not a LifeSignal contact code.", reason: .invalid(field: "code"))))
        }
    }

    @Test func unknownCodeIsShown() async {
        let store = TestStore(initialState: AddContactFeature.State(codeInput: code)) {
            AddContactFeature()
        } withDependencies: {
            $0.contactClient.lookUp = { _ in
                throw APIError.server(status: 404, code: .codeNotFound, message: "No one has that code.", field: nil)
            }
        }
        await store.send(.lookUpButtonTapped) {
            $0.code = self.code
            $0.isLookingUp = true
        }
        await store.receive(\.lookUpResponse.failure) {
            $0.isLookingUp = false
            $0.code = nil
            $0.destination = .alert(.failure(UserFacingError(message: "No one has that code.", reason: .refused(.codeNotFound))))
        }
        // Without a preview nothing can be added.
        await store.send(.addButtonTapped)
    }

    @Test func atLeastOneRoleAndAddFailure() async {
        var state = AddContactFeature.State(codeInput: code)
        state.code = code
        state.preview = preview
        let store = TestStore(initialState: state) {
            AddContactFeature()
        } withDependencies: {
            $0.contactClient.add = { _, _ in
                throw APIError.server(status: 409, code: .alreadyLinked, message: "You are already linked.", field: nil)
            }
        }
        await store.send(.responderToggled(false)) { $0.roles = [] }
        #expect(!store.state.canAdd)
        await store.send(.addButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(message: "Choose at least one role: responder, dependent or both.", reason: .invalid(field: "roles"))))
        }
        await store.send(.dependentToggled(true)) { $0.roles = .dependent }
        await store.send(.addButtonTapped) { $0.isAdding = true }
        await store.receive(\.addResponse.failure) {
            $0.isAdding = false
            $0.destination = .alert(.failure(UserFacingError(message: "You are already linked.", reason: .refused(.alreadyLinked))))
        }
    }

    @Test func cancelTellsTheParent() async {
        let store = TestStore(initialState: AddContactFeature.State()) { AddContactFeature() }
        await store.send(.cancelButtonTapped)
        await store.receive(.delegate(.cancelled))
    }
}
