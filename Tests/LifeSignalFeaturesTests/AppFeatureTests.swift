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
        let storage = ProfileStorageClient.inMemory(StoredProfile(user: Fixtures.user))
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { nil }
            $0.profileStorageClient = storage
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.success(nil))) { $0 = .signIn(SignInFeature.State()) }
        await store.finish()
        // Nobody signed in: nothing of a previous person stays on the device.
        #expect(storage.load() == nil)
    }

    @Test func storedTokenRestoresTheSession() async {
        let storage = ProfileStorageClient.inMemory()
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_token" }
            $0.authClient.restoreSession = { Fixtures.user }
            $0.profileStorageClient = storage
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.sessionRestored(.success(Fixtures.user))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user))
        }
        await store.finish()
        // The server's copy is kept for an offline start.
        #expect(storage.load() == StoredProfile(user: Fixtures.user))
    }

    @Test func aPersonWithoutNamesIsOnboarded() async {
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_token" }
            $0.authClient.restoreSession = { OnboardingFeatureTests.newUser }
            $0.profileStorageClient = .inMemory()
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
            // Nothing kept on this device yet.
            $0.profileStorageClient = .inMemory()
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
        let storage = ProfileStorageClient.inMemory(StoredProfile(user: Fixtures.user))
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_revoked" }
            $0.authClient.restoreSession = {
                throw APIError.server(status: 401, code: .unauthorized, message: "Please sign in again.", field: nil)
            }
            $0.profileStorageClient = storage
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(\.sessionRestored.failure) { $0 = .signIn(SignInFeature.State()) }
        await store.finish()
        #expect(storage.load() == nil)
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
        let storage = ProfileStorageClient.inMemory()
        let store = TestStore(initialState: AppFeature.State.signIn(SignInFeature.State())) {
            AppFeature()
        } withDependencies: {
            $0.profileStorageClient = storage
        }
        let result = SignInResult(user: newUser, session: .preview, isNewUser: true)
        await store.send(.signIn(.delegate(.signedIn(result)))) {
            $0 = .onboarding(OnboardingFeature.State(user: newUser))
        }
        await store.send(.onboarding(.delegate(.completed(Fixtures.user)))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user))
        }
        await store.finish()
        #expect(storage.load() == StoredProfile(user: Fixtures.user))
        await store.send(.main(.delegate(.signedOut))) {
            $0 = .signIn(SignInFeature.State())
        }
        await store.finish()
        #expect(storage.load() == nil)
        let returning = SignInResult(user: Fixtures.user, session: .preview, isNewUser: false)
        await store.send(.signIn(.delegate(.signedIn(returning)))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user))
        }
        await store.send(.main(.delegate(.accountDeleted))) {
            $0 = .signIn(SignInFeature.State())
        }
        await store.finish()
        #expect(storage.load() == nil)
    }

    @Test func anOfflineColdStartOpensTheHomeScreenWithTheLastKnownStatus() async {
        // Checked in at 08:00 (the server said so before the network went away).
        var status = CheckInStatus.preview
        status.userID = Fixtures.user.id
        status.lastCheckInAt = Date(timeIntervalSince1970: 1_800_000_000)
        status.deadline = Date(timeIntervalSince1970: 1_800_086_400)
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.tokenStorageClient.load = { "ls_token" }
            $0.authClient.restoreSession = { throw Fixtures.offline }
            $0.profileStorageClient = .inMemory(StoredProfile(user: Fixtures.user, status: status))
        }
        await store.send(.appLaunched) { $0 = .launching(AppFeature.Launch(isRestoring: true)) }
        await store.receive(.restoredOffline(StoredProfile(user: Fixtures.user, status: status))) {
            $0 = .main(MainTabsFeature.State(user: Fixtures.user, status: status, offline: true))
        }
        // The home screen's check-in counts down from what was kept, and knows it is offline.
        guard case let .main(main) = store.state else {
            Issue.record("not on the home screen")
            return
        }
        #expect(main.checkIn.lastCheckIn == status.lastCheckInAt)
        #expect(main.checkIn.nextCheckInDue == status.deadline)
        #expect(main.checkIn.pending.isOnline == false)
    }

    @Test func whatTheServerSaysIsKeptAsItArrives() async {
        var status = CheckInStatus.preview
        status.userID = Fixtures.user.id
        status.lastCheckInAt = Date(timeIntervalSince1970: 1_800_000_000)
        let storage = ProfileStorageClient.inMemory(StoredProfile(user: Fixtures.user))
        let store = TestStore(initialState: AppFeature.State.main(MainTabsFeature.State(user: Fixtures.user))) {
            AppFeature()
        } withDependencies: {
            $0.profileStorageClient = storage
        }
        store.exhaustivity = .off
        await store.send(.main(.checkIn(.statusResponse(.success(status)))))
        await store.finish()
        #expect(storage.load() == StoredProfile(user: Fixtures.user, status: status))
        // A changed profile keeps the status it had.
        var renamed = Fixtures.user
        renamed.firstName = "Adeline"
        await store.send(.main(.profile(.delegate(.userChanged(renamed)))))
        await store.finish()
        #expect(storage.load() == StoredProfile(user: renamed, status: status))
    }

    /// Live status events reach her about the people she watches over too; only hers is kept
    /// for an offline start, so a dependent's alert never shows as her own.
    @Test func aDependentsStatusIsNotKeptAsHers() async {
        var hers = CheckInStatus.preview
        hers.userID = Fixtures.user.id
        hers.lastCheckInAt = Date(timeIntervalSince1970: 1_800_000_000)
        var theirs = CheckInStatus.preview
        theirs.userID = UserID(UUID())
        theirs.state = .alert
        let storage = ProfileStorageClient.inMemory(StoredProfile(user: Fixtures.user, status: hers))
        let store = TestStore(initialState: AppFeature.State.main(MainTabsFeature.State(user: Fixtures.user))) {
            AppFeature()
        } withDependencies: {
            $0.profileStorageClient = storage
            // The check-in screen moves its reminders with the new deadline.
            $0.localNotificationClient.cancel = { _ in }
            $0.localNotificationClient.schedule = { _ in }
        }
        store.exhaustivity = .off
        await store.send(.main(.notifications(.delegate(.statusChanged(theirs)))))
        await store.finish()
        #expect(storage.load() == StoredProfile(user: Fixtures.user, status: hers))
        // Time she added is hers, and kept.
        var later = hers
        later.deadline = hers.deadline.addingTimeInterval(3600)
        await store.send(.main(.checkIn(.addTimeResponse(.success(later)))))
        await store.finish()
        #expect(storage.load() == StoredProfile(user: Fixtures.user, status: later))
    }
}
