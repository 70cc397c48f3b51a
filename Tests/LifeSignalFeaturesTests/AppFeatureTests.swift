import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct AppFeatureTests {
    @Test func noStoredTokenGoesStraightToSignIn() async {
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { nil }
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.success(nil))) { $0 = .signIn(SignInFeature.State()) }
    }

    @Test func storedTokenRestoresTheSession() async {
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_token" }
            $0.authClient.restoreSession = { Fixtures.user }
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.success(Fixtures.user))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user))
        }
    }

    @Test func aPersonWithoutNamesIsOnboarded() async {
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_token" }
            $0.authClient.restoreSession = { OnboardingFeatureTests.newUser }
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.success(OnboardingFeatureTests.newUser))) {
            $0 = .onboarding(OnboardingFeature.State(user: OnboardingFeatureTests.newUser))
        }
    }

    @Test func offlineAtLaunchOffersARetry() async {
        let attempts = LockIsolated(0)
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_token" }
            $0.authClient.restoreSession = {
                attempts.withValue { $0 += 1 }
                if attempts.value == 1 { throw Fixtures.offline }
                return Fixtures.user
            }
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.failure(Fixtures.offlineFailure))) {
            $0 = .launching(AppFeature.Launch(error: Fixtures.offlineFailure))
        }
        await store.send(.retryButtonTapped) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.success(Fixtures.user))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user))
        }
    }

    @Test func aRefusedTokenMeansSigningInAgain() async {
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_revoked" }
            $0.authClient.restoreSession = {
                throw APIError.server(status: 401, code: "unauthorized", message: "Please sign in again.", field: nil)
            }
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(\.sessionRestored.failure) { $0 = .signIn(SignInFeature.State()) }
    }

    @Test func unreadableTokenStorageIsShown() async {
        struct KeychainLocked: LocalizedError {
            var errorDescription: String? { "The keychain is locked." }
        }
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { throw KeychainLocked() }
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.failure(UserFacingError(message: "The keychain is locked.")))) {
            $0 = .launching(AppFeature.Launch(error: UserFacingError(message: "The keychain is locked.")))
        }
    }

    @Test func signInOnboardingMainAndSignOut() async {
        let newUser = OnboardingFeatureTests.newUser
        let store = TestStore(initialState: AppFeature.State.signIn(SignInFeature.State())) { AppFeature() }
        let result = SignInResult(user: newUser, session: .preview, isNewUser: true)
        await store.send(.signIn(.delegate(.signedIn(result)))) {
            $0 = .onboarding(OnboardingFeature.State(user: newUser))
        }
        await store.send(.onboarding(.delegate(.completed(Fixtures.user)))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user))
        }
        await store.send(.main(.delegate(.signedOut))) {
            $0 = .signIn(SignInFeature.State())
        }
        let returning = SignInResult(user: Fixtures.user, session: .preview, isNewUser: false)
        await store.send(.signIn(.delegate(.signedIn(returning)))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user))
        }
        await store.send(.main(.delegate(.accountDeleted))) {
            $0 = .signIn(SignInFeature.State())
        }
    }
}
