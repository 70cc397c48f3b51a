import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// The root: restores the session from the stored token, then routes to sign-in, onboarding
/// or the main tabs, and back to sign-in when the person signs out or deletes the account.
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
        case signIn(SignInFeature.Action)
        case onboarding(OnboardingFeature.Action)
        case main(MainTabsFeature.Action)
    }

    @Dependency(\.tokenStorageClient) var tokenStorage
    @Dependency(\.authClient) var authClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .appLaunched, .retryButtonTapped:
                guard case .launching = state else { return .none }
                state = .launching(Launch(isRestoring: true))
                return .run { send in
                    await send(.sessionRestored(Result.catching {
                        // No stored token: straight to sign-in, without a request.
                        guard try tokenStorage.load() != nil else { return nil }
                        return try await authClient.restoreSession()
                    }))
                }

            case let .sessionRestored(.success(user)):
                state = Self.route(for: user)
                return .none

            case let .sessionRestored(.failure(error)):
                // A refused token means signing in again; anything else (offline, a server
                // error) keeps the token and offers a retry.
                state = error.isUnauthorized
                    ? .signIn(SignInFeature.State())
                    : .launching(Launch(error: error))
                return .none

            case let .signIn(.delegate(.signedIn(result))):
                state = result.isNewUser ? .onboarding(OnboardingFeature.State(user: result.user)) : Self.route(for: result.user)
                return .none

            case let .onboarding(.delegate(.completed(user))):
                state = .main(MainTabsFeature.State(user: user))
                return .none

            case .main(.delegate(.signedOut)), .main(.delegate(.accountDeleted)):
                state = .signIn(SignInFeature.State())
                return .none

            case .signIn, .onboarding, .main:
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

    static func route(for user: User?) -> State {
        guard let user else { return .signIn(SignInFeature.State()) }
        return user.isOnboarded ? .main(MainTabsFeature.State(user: user)) : .onboarding(OnboardingFeature.State(user: user))
    }
}
