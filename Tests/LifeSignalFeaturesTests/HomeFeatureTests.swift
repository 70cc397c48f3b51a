import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct HomeFeatureTests {
    let code = ContactCode(code: Fixtures.user.contactCode, link: "lifesignal://contact/\(Fixtures.user.contactCode)")

    @Test func loadsTheContactCodeAndShowsTheQRCode() async {
        let store = TestStore(initialState: HomeFeature.State(user: Fixtures.user)) {
            HomeFeature()
        } withDependencies: { [code] in
            $0.contactClient.contactCode = { code }
        }
        await store.send(.task) { $0.isLoadingCode = true }
        await store.receive(.contactCodeResponse(.success(code))) {
            $0.isLoadingCode = false
            $0.contactCode = self.code
        }
        // Loaded once: appearing again does not ask again.
        await store.send(.task)
        await store.send(.qrCodeButtonTapped) { $0.destination = .qrCode(self.code) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.instructionsButtonTapped) { $0.destination = .instructions }
    }

    @Test func contactCodeFailureIsShown() async {
        let store = TestStore(initialState: HomeFeature.State(user: Fixtures.user)) {
            HomeFeature()
        } withDependencies: {
            $0.contactClient.contactCode = { throw Fixtures.serverError }
        }
        await store.send(.task) { $0.isLoadingCode = true }
        await store.receive(.contactCodeResponse(.failure(Fixtures.serverFailure))) {
            $0.isLoadingCode = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        // No code, no QR sheet.
        await store.send(.qrCodeButtonTapped)
    }

    @Test func rotatingTheCodeIsConfirmedFirst() async {
        let rotated = ContactCode(code: "fedcba9876543210fedcba9876543210", link: "lifesignal://contact/fedcba9876543210fedcba9876543210")
        var state = HomeFeature.State(user: Fixtures.user)
        state.contactCode = code
        let store = TestStore(initialState: state) {
            HomeFeature()
        } withDependencies: {
            $0.contactClient.rotateCode = { rotated }
        }
        await store.send(.rotateCodeButtonTapped) { $0.destination = .alert(.confirmRotateCode) }
        await store.send(.destination(.presented(.alert(.confirmRotateCode)))) {
            $0.destination = nil
            $0.isLoadingCode = true
        }
        await store.receive(.rotateCodeResponse(.success(rotated))) {
            $0.isLoadingCode = false
            $0.contactCode = rotated
            $0.user.contactCode = rotated.code
        }
    }

    @Test func rotateFailureIsShown() async {
        let store = TestStore(initialState: HomeFeature.State(user: Fixtures.user)) {
            HomeFeature()
        } withDependencies: {
            $0.contactClient.rotateCode = { throw Fixtures.serverError }
        }
        await store.send(.rotateCodeButtonTapped) { $0.destination = .alert(.confirmRotateCode) }
        await store.send(.destination(.presented(.alert(.confirmRotateCode)))) {
            $0.destination = nil
            $0.isLoadingCode = true
        }
        await store.receive(.rotateCodeResponse(.failure(Fixtures.serverFailure))) {
            $0.isLoadingCode = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }

    @Test func intervalChangeIsConfirmedThenSaved() async {
        var saved = Fixtures.user
        saved.schedule = .interval(seconds: 8 * 3600)
        let store = TestStore(initialState: HomeFeature.State(user: Fixtures.user)) {
            HomeFeature()
        } withDependencies: { [saved] in
            $0.userClient.updateProfile = { changes in
                #expect(changes == ProfileChanges(schedule: .interval(seconds: 8 * 3600)))
                return saved
            }
        }
        // Picking the current value asks nothing.
        await store.send(.intervalPicked(24 * 3600))
        await store.send(.intervalPicked(8 * 3600)) { $0.destination = .alert(.confirmIntervalChange(8 * 3600)) }
        await store.send(.destination(.presented(.alert(.confirmIntervalChange(8 * 3600))))) {
            $0.destination = nil
            $0.isSaving = true
        }
        await store.receive(.profileSaved(.success(saved))) {
            $0.isSaving = false
            $0.user = saved
        }
        await store.receive(.delegate(.userChanged(saved)))
    }

    @Test func cancellingTheConfirmationSavesNothing() async {
        let store = TestStore(initialState: HomeFeature.State(user: Fixtures.user)) {
            HomeFeature()
        }
        await store.send(.remindersPicked(.twoHours)) { $0.destination = .alert(.confirmRemindersChange(.twoHours)) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        #expect(store.state.user.reminders == .thirtyMinutes)
    }

    @Test func reminderChangeSaveFailureIsShown() async {
        let store = TestStore(initialState: HomeFeature.State(user: Fixtures.user)) {
            HomeFeature()
        } withDependencies: {
            $0.userClient.updateProfile = { _ in throw Fixtures.serverError }
        }
        await store.send(.remindersPicked(.both)) { $0.destination = .alert(.confirmRemindersChange(.both)) }
        await store.send(.destination(.presented(.alert(.confirmRemindersChange(.both))))) {
            $0.destination = nil
            $0.isSaving = true
        }
        await store.receive(.profileSaved(.failure(Fixtures.serverFailure))) {
            $0.isSaving = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }

    @Test func remindersThatDoNotFitAreRefused() async {
        var user = Fixtures.user
        user.schedule = .interval(seconds: 3600)
        user.reminders = .none
        let store = TestStore(initialState: HomeFeature.State(user: user)) { HomeFeature() }
        await store.send(.remindersPicked(.twoHours)) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "A reminder must come sooner than the check-in interval.", reason: .invalid(field: "reminders"))))
        }
    }
}
