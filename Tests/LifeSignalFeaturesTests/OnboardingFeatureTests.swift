import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct OnboardingFeatureTests {
    nonisolated static let newUser = User(
        id: Fixtures.user.id, phone: Fixtures.user.phone, createdAt: Fixtures.now,
        contactCode: Fixtures.user.contactCode)

    @Test func walksTheStepsAndSaves() async {
        var saved = Self.newUser
        saved.firstName = "Ada"
        saved.lastName = "Lovelace"
        saved.emergencyNote = "Diabetic."
        saved.schedule = .interval(seconds: 16 * 3600)
        saved.reminders = .both
        saved.isOnboarded = true
        let store = TestStore(initialState: OnboardingFeature.State(user: Self.newUser)) {
            OnboardingFeature()
        } withDependencies: { [saved] in
            $0.userClient.updateProfile = { changes in
                #expect(
                    changes
                        == ProfileChanges(
                            firstName: "Ada", lastName: "Lovelace", emergencyNote: "Diabetic.",
                            schedule: .interval(seconds: 16 * 3600), reminders: .both))
                return saved
            }
        }

        await store.send(.binding(.set(\.firstName, " Ada "))) { $0.firstName = " Ada " }
        await store.send(.binding(.set(\.lastName, "Lovelace"))) { $0.lastName = "Lovelace" }
        await store.send(.nextButtonTapped) { $0.step = .emergencyNote }
        await store.send(.binding(.set(\.emergencyNote, "Diabetic.\n"))) { $0.emergencyNote = "Diabetic.\n" }
        await store.send(.nextButtonTapped) { $0.step = .interval }
        await store.send(.binding(.set(\.checkInInterval, 16 * 3600))) { $0.checkInInterval = 16 * 3600 }
        await store.send(.nextButtonTapped) { $0.step = .reminders }
        await store.send(.binding(.set(\.reminders, .both))) { $0.reminders = .both }
        await store.send(.nextButtonTapped) { $0.isSaving = true }
        await store.receive(.saveResponse(.success(saved))) { $0.isSaving = false }
        await store.receive(.delegate(.completed(saved)))
    }

    @Test func invalidNamesStopAtTheFirstStep() async {
        let store = TestStore(initialState: OnboardingFeature.State(user: Self.newUser)) {
            OnboardingFeature()
        }
        await store.send(.binding(.set(\.firstName, "A"))) { $0.firstName = "A" }
        await store.send(.nextButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "A name must be 2 to 50 characters long.", reason: .invalid(field: "firstName"))))
        }
        await store.send(.binding(.set(\.firstName, "Ada"))) { $0.firstName = "Ada" }
        await store.send(.binding(.set(\.lastName, "L0velace"))) { $0.lastName = "L0velace" }
        await store.send(.nextButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "A name may contain only letters, spaces, hyphens and apostrophes.", reason: .invalid(field: "lastName"))))
        }
        await store.send(.binding(.set(\.lastName, "O'Neil-Smith"))) { $0.lastName = "O'Neil-Smith" }
        await store.send(.nextButtonTapped) {
            $0.step = .emergencyNote
            $0.destination = nil
        }
        await store.send(.binding(.set(\.emergencyNote, String(repeating: "x", count: 501)))) {
            $0.emergencyNote = String(repeating: "x", count: 501)
        }
        await store.send(.nextButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(message: "The emergency note can be at most 500 characters.", reason: .invalid(field: "emergencyNote")))
            )
        }
        await store.send(.backButtonTapped) {
            $0.step = .names
            $0.destination = nil
        }
        // Nothing before the first step.
        await store.send(.backButtonTapped)
    }

    @Test func remindersMustFitTheInterval() async {
        var state = OnboardingFeature.State(user: Self.newUser)
        state.firstName = "Ada"
        state.lastName = "Lovelace"
        state.step = .reminders
        state.checkInInterval = 3600
        state.reminders = .twoHours
        let store = TestStore(initialState: state) { OnboardingFeature() }
        await store.send(.nextButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "A reminder must come sooner than the check-in interval.", reason: .invalid(field: "reminders"))))
        }
    }

    @Test func saveFailureIsShown() async {
        var state = OnboardingFeature.State(user: Self.newUser)
        state.firstName = "Ada"
        state.lastName = "Lovelace"
        state.step = .reminders
        let store = TestStore(initialState: state) {
            OnboardingFeature()
        } withDependencies: {
            $0.userClient.updateProfile = { _ in throw Fixtures.serverError }
        }
        await store.send(.nextButtonTapped) { $0.isSaving = true }
        await store.receive(.saveResponse(.failure(Fixtures.serverFailure))) {
            $0.isSaving = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }
}
