import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct ProfileFeatureTests {
    @Test func editNamesAndNote() async {
        var saved = Fixtures.user
        saved.firstName = "Augusta"
        saved.emergencyNote = "Lives with a cat."
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: { [saved] in
            $0.userClient.updateProfile = { changes in
                #expect(
                    changes
                        == ProfileChanges(firstName: "Augusta", lastName: "Lovelace", emergencyNote: "Lives with a cat."))
                return saved
            }
        }
        await store.send(.editButtonTapped) {
            $0.destination = .editProfile(EditProfileFeature.State(user: Fixtures.user))
        }
        await store.send(.destination(.presented(.editProfile(.binding(.set(\.firstName, "Augusta")))))) {
            $0.destination?.modify(\.editProfile) { $0.firstName = "Augusta" }
        }
        await store.send(.destination(.presented(.editProfile(.binding(.set(\.emergencyNote, " Lives with a cat. ")))))) {
            $0.destination?.modify(\.editProfile) { $0.emergencyNote = " Lives with a cat. " }
        }
        await store.send(.destination(.presented(.editProfile(.saveButtonTapped)))) {
            $0.destination?.modify(\.editProfile) { $0.isSaving = true }
        }
        await store.receive(\.destination.editProfile.saveResponse.success) {
            $0.destination?.modify(\.editProfile) { $0.isSaving = false }
        }
        await store.receive(\.destination.editProfile.delegate.saved) {
            $0.destination = nil
            $0.user = saved
        }
        await store.receive(.delegate(.userChanged(saved)))
    }

    @Test func changePhoneWithACode() async {
        let request = CodeRequest(
            phone: "+447700900999", expiresAt: Fixtures.now.addingTimeInterval(300),
            resendAfter: Fixtures.now.addingTimeInterval(60))
        var saved = Fixtures.user
        saved.phone = "+447700900999"
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: { [saved] in
            $0.userClient.requestPhoneChange = { phone in
                #expect(phone == "+447700900999")
                return request
            }
            $0.userClient.confirmPhoneChange = { phone, code in
                #expect(phone == "+447700900999")
                #expect(code == "424242")
                return saved
            }
        }
        await store.send(.changePhoneButtonTapped) {
            $0.destination = .phoneChange(PhoneChangeFeature.State())
        }
        await store.send(.destination(.presented(.phoneChange(.phone(.regionSelected(.unitedKingdom)))))) {
            $0.destination?.modify(\.phoneChange) { $0.phone.region = .unitedKingdom }
        }
        await store.send(.destination(.presented(.phoneChange(.phone(.numberChanged("07700 900999")))))) {
            $0.destination?.modify(\.phoneChange) { $0.phone.number = "07700 900999" }
        }
        await store.send(.destination(.presented(.phoneChange(.sendCodeButtonTapped)))) {
            $0.destination?.modify(\.phoneChange) { $0.isSending = true }
        }
        await store.receive(\.destination.phoneChange.codeRequestResponse.success) {
            $0.destination?.modify(\.phoneChange) {
                $0.isSending = false
                $0.request = request
            }
        }
        await store.send(.destination(.presented(.phoneChange(.codeChanged("424242"))))) {
            $0.destination?.modify(\.phoneChange) { $0.code = "424242" }
        }
        await store.send(.destination(.presented(.phoneChange(.confirmButtonTapped)))) {
            $0.destination?.modify(\.phoneChange) { $0.isConfirming = true }
        }
        await store.receive(\.destination.phoneChange.confirmResponse.success) {
            $0.destination?.modify(\.phoneChange) { $0.isConfirming = false }
        }
        await store.receive(\.destination.phoneChange.delegate.phoneChanged) {
            $0.destination = nil
            $0.user = saved
        }
        await store.receive(.delegate(.userChanged(saved)))
    }

    @Test func signOutIsConfirmed() async {
        let signedOut = LockIsolated(false)
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.authClient.signOut = { signedOut.setValue(true) }
        }
        await store.send(.signOutButtonTapped) { $0.destination = .alert(.confirmSignOut) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        #expect(!signedOut.value)
        await store.send(.signOutButtonTapped) { $0.destination = .alert(.confirmSignOut) }
        await store.send(.destination(.presented(.alert(.confirmSignOut)))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.signOutResponse(.success(Fixtures.user.id))) { $0.isBusy = false }
        await store.receive(.delegate(.signedOut))
        #expect(signedOut.value)
    }

    @Test func signOutFailureIsShown() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.authClient.signOut = { throw Fixtures.offline }
        }
        await store.send(.signOutButtonTapped) { $0.destination = .alert(.confirmSignOut) }
        await store.send(.destination(.presented(.alert(.confirmSignOut)))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.signOutResponse(.failure(Fixtures.offlineFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.offlineFailure))
        }
    }

    @Test func deleteAccountIsConfirmed() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.userClient.deleteAccount = {}
        }
        await store.send(.deleteAccountButtonTapped) { $0.destination = .alert(.confirmDeleteAccount) }
        await store.send(.destination(.presented(.alert(.confirmDeleteAccount)))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.deleteAccountResponse(.success(Fixtures.user.id))) { $0.isBusy = false }
        await store.receive(.delegate(.accountDeleted))
    }

    @Test func deleteAccountFailureIsShown() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.userClient.deleteAccount = { throw Fixtures.serverError }
        }
        await store.send(.deleteAccountButtonTapped) { $0.destination = .alert(.confirmDeleteAccount) }
        await store.send(.destination(.presented(.alert(.confirmDeleteAccount)))) {
            $0.destination = nil
            $0.isBusy = true
        }
        await store.receive(.deleteAccountResponse(.failure(Fixtures.serverFailure))) {
            $0.isBusy = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func cancellingEditAndPhoneChangeDismisses() async {
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) { ProfileFeature() }
        await store.send(.editButtonTapped) {
            $0.destination = .editProfile(EditProfileFeature.State(user: Fixtures.user))
        }
        await store.send(.destination(.presented(.editProfile(.cancelButtonTapped))))
        await store.receive(.destination(.presented(.editProfile(.delegate(.cancelled))))) { $0.destination = nil }
        await store.send(.changePhoneButtonTapped) { $0.destination = .phoneChange(PhoneChangeFeature.State()) }
        await store.send(.destination(.presented(.phoneChange(.cancelButtonTapped))))
        await store.receive(.destination(.presented(.phoneChange(.delegate(.cancelled))))) { $0.destination = nil }
    }
}

@MainActor
struct EditProfileFeatureTests {
    @Test func invalidInputIsNotSent() async {
        let store = TestStore(initialState: EditProfileFeature.State(user: Fixtures.user)) { EditProfileFeature() }
        await store.send(.binding(.set(\.lastName, "L"))) { $0.lastName = "L" }
        await store.send(.saveButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "A name must be 2 to 50 characters long.", reason: .invalid(field: "lastName"))))
        }
        await store.send(.binding(.set(\.lastName, "Lovelace"))) { $0.lastName = "Lovelace" }
        await store.send(.binding(.set(\.emergencyNote, String(repeating: "n", count: 501)))) {
            $0.emergencyNote = String(repeating: "n", count: 501)
        }
        #expect(store.state.noteCharactersLeft == -1)
        await store.send(.saveButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(message: "The emergency note can be at most 500 characters.", reason: .invalid(field: "emergencyNote")))
            )
        }
    }

    @Test func saveFailureIsShown() async {
        let store = TestStore(initialState: EditProfileFeature.State(user: Fixtures.user)) {
            EditProfileFeature()
        } withDependencies: {
            $0.userClient.updateProfile = { _ in throw Fixtures.serverError }
        }
        await store.send(.saveButtonTapped) { $0.isSaving = true }
        await store.receive(.saveResponse(.failure(Fixtures.serverFailure))) {
            $0.isSaving = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }
}

@MainActor
struct PhoneChangeFeatureTests {
    @Test func failuresOfBothStepsAreShown() async {
        let request = CodeRequest(
            phone: "+14155550199", expiresAt: Fixtures.now.addingTimeInterval(300),
            resendAfter: Fixtures.now.addingTimeInterval(60))
        let store = TestStore(initialState: PhoneChangeFeature.State()) {
            PhoneChangeFeature()
        } withDependencies: {
            $0.userClient.requestPhoneChange = { _ in throw Fixtures.serverError }
            $0.userClient.confirmPhoneChange = { _, _ in
                throw APIError.server(status: 400, code: .codeExpired, message: "That code has expired.", field: "code")
            }
        }
        await store.send(.sendCodeButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "Enter the phone number with its country code, like +44 7700 900123.", reason: .invalid(field: "phone"))))
        }
        await store.send(.phone(.numberChanged("415 555 0199"))) { $0.phone.number = "415 555 0199" }
        await store.send(.sendCodeButtonTapped) {
            $0.isSending = true
            $0.destination = nil
        }
        await store.receive(.codeRequestResponse(.failure(Fixtures.serverFailure))) {
            $0.isSending = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        // No code was sent: nothing to confirm.
        await store.send(.confirmButtonTapped)

        await store.send(.codeRequestResponse(.success(request))) {
            $0.request = request
        }
        await store.send(.codeChanged("111111")) { $0.code = "111111" }
        await store.send(.confirmButtonTapped) {
            $0.isConfirming = true
            $0.destination = nil
        }
        await store.receive(\.confirmResponse.failure) {
            $0.isConfirming = false
            $0.destination = .alert(.failure(UserFacingError(message: "That code has expired.", reason: .refused(.codeExpired))))
        }
    }
}
