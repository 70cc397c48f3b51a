import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// The root: restores the session from the stored token, then routes to sign-in, onboarding
/// or the main tabs, and back to sign-in when the person signs out or deletes the account.
///
/// The person's profile and last known status are kept on the device (`ProfileStorageClient`)
/// whenever the server gives new ones, so a cold start without a network opens the home
/// screen with its check-in button (check-ins queue until the network returns) instead of a
/// retry screen. Once the server answers again, its copy replaces the stored one.
public struct AppFeature: Reducer, Sendable {
    @CasePathable
    public enum State: Equatable, Sendable {
        case launching(Launch)
        case signIn(SignInFeature.State)
        case onboarding(OnboardingFeature.State)
        case main(MainTabsFeature.State)

        public init() {
            self = .launching(Launch())
        }
    }

    /// The splash while the session is restored, with an error and a retry if that failed.
    public struct Launch: Equatable, Sendable {
        public var isRestoring = false
        public var error: UserFacingError?

        public init(isRestoring: Bool = false, error: UserFacingError? = nil) {
            self.isRestoring = isRestoring
            self.error = error
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case appLaunched
        case retryButtonTapped
        /// The person the stored token belongs to; nil when there is no (valid) token.
        case sessionRestored(Result<User?, UserFacingError>)
        /// The server could not be reached at launch; what the device kept of its person.
        case restoredOffline(StoredProfile)
        case signIn(SignInFeature.Action)
        case onboarding(OnboardingFeature.Action)
        case main(MainTabsFeature.Action)
    }

    @Dependency(\.tokenStorageClient) var tokenStorage
    @Dependency(\.authClient) var authClient
    @Dependency(\.profileStorageClient) var profileStorage

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .appLaunched, .retryButtonTapped:
                guard case .launching = state else { return .none }
                state = .launching(Launch(isRestoring: true))
                return .run { send in
                    let restored = await Result<User?, UserFacingError>.catching {
                        // No stored token: straight to sign-in, without a request.
                        guard try tokenStorage.load() != nil else { return nil }
                        return try await authClient.restoreSession()
                    }
                    if case let .failure(error) = restored, error.isOffline, let kept = profileStorage.load(),
                        kept.user.isOnboarded
                    {
                        return await send(.restoredOffline(kept))
                    }
                    await send(.sessionRestored(restored))
                }

            case let .sessionRestored(.success(user)):
                state = Self.route(for: user)
                guard let user else { return clearStoredProfile() }
                return keep(user)

            case let .restoredOffline(kept):
                state = .main(MainTabsFeature.State(user: kept.user, status: kept.status, offline: true))
                return .none

            case let .sessionRestored(.failure(error)):
                // A refused token means signing in again; anything else (offline, a server
                // error) keeps the token and offers a retry.
                if error.isUnauthorized {
                    state = .signIn(SignInFeature.State())
                    return clearStoredProfile()
                }
                state = .launching(Launch(error: error))
                return .none

            case let .signIn(.delegate(.signedIn(result))):
                state = result.isNewUser ? .onboarding(OnboardingFeature.State(user: result.user)) : Self.route(for: result.user)
                return keep(result.user)

            case let .onboarding(.delegate(.completed(user))):
                state = .main(MainTabsFeature.State(user: user))
                return keep(user)

            case .main(.delegate(.signedOut)), .main(.delegate(.accountDeleted)):
                state = .signIn(SignInFeature.State())
                return clearStoredProfile()

            case let .main(action):
                // The tabs have applied what the server said: keep it for an offline start.
                guard case let .main(main) = state, let status = Self.storedStatus(after: action) else { return .none }
                // A status about someone she watches over is theirs: nothing of hers changed.
                if let status, status.userID != main.user.id { return .none }
                return keep(main.user, status: status)

            case .signIn, .onboarding:
                return .none
            }
        }
        .ifCaseLet(\.signIn, action: \.signIn) {
            SignInFeature()
        }
        .ifCaseLet(\.onboarding, action: \.onboarding) {
            OnboardingFeature()
        }
        .ifCaseLet(\.main, action: \.main) {
            MainTabsFeature()
        }
    }

    /// Stores the server's copy of the person, with `status` or, without one, the status
    /// kept for this person until the next one arrives.
    private func keep(_ user: User, status: CheckInStatus? = nil) -> Effect<Action> {
        .run { [profileStorage] _ in
            let status = status ?? profileStorage.load()?.status.flatMap { $0.userID == user.id ? $0 : nil }
            try? profileStorage.save(StoredProfile(user: user, status: status))
        }
        .cancellable(id: CancelID.storage)
    }

    /// Forgets the kept profile; a save still on its way is cancelled first, so it cannot
    /// write the person back after they signed out.
    private func clearStoredProfile() -> Effect<Action> {
        .concatenate(.cancel(id: CancelID.storage), .run { [profileStorage] _ in try? profileStorage.clear() })
    }

    enum CancelID { case storage }

    /// Whether a tabs action brought the server's word on a status: `.some(status)` with the
    /// new status (hers, or of someone she watches over), `.some(nil)` when only the person
    /// changed, nil when neither.
    static func storedStatus(after action: MainTabsFeature.Action) -> CheckInStatus?? {
        switch action {
        case let .checkIn(.statusResponse(.success(status))), let .checkIn(.addTimeResponse(.success(status))),
            let .alert(.delegate(.alertCleared(status))), let .notifications(.delegate(.statusChanged(status))),
            let .profile(.delegate(.statusChanged(status))):
            .some(status)
        case let .checkIn(.checkInResponse(.success(.recorded(result)))),
            let .responders(.delegate(.checkedIn(result))), let .dependents(.delegate(.checkedIn(result))):
            .some(result.status)
        case let .checkIn(.pending(.delegate(.sent(results)))):
            results.last.map { .some($0.status) }
        case .home(.delegate(.userChanged)), .checkIn(.delegate(.scheduleChanged)), .profile(.delegate(.userChanged)):
            .some(nil)
        default:
            nil
        }
    }

    static func route(for user: User?) -> State {
        guard let user else { return .signIn(SignInFeature.State()) }
        return user.isOnboarded ? .main(MainTabsFeature.State(user: user)) : .onboarding(OnboardingFeature.State(user: user))
    }
}
