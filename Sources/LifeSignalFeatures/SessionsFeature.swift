import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels

/// Where I'm signed in and the API tokens my scripts use: list, revoke, and create a token
/// with a scope. A new token's secret is shown once, right after it is made.
public struct SessionsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var sessions: IdentifiedArrayOf<Session> = []
        /// This device's own session, which is "sign out" rather than "revoke".
        public var currentID: SessionID?
        public var isLoading = false
        public var revokingIDs: Set<SessionID> = []
        public var tokenName = ""
        public var tokenScope: Session.Scope = .checkIn
        public var isCreating = false
        /// The token just made: shown once, never again.
        public var createdToken: APIToken?
        @PresentationState public var destination: Destination.State?

        public init(currentID: SessionID? = nil) {
            self.currentID = currentID
        }

        public var signIns: [Session] { sessions.filter { $0.kind == .session } }
        public var tokens: [Session] { sessions.filter { $0.kind == .apiToken } }
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case task
        case sessionsResponse(Result<[Session], UserFacingError>)
        case revokeButtonTapped(SessionID)
        case revokeResponse(SessionID, Result<Bool, UserFacingError>)
        case createTokenButtonTapped
        case createTokenResponse(Result<APIToken, UserFacingError>)
        /// The person copied the token or closed it: it is not shown again.
        case tokenDismissed
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.authClient) var authClient

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.sessionsResponse) { try await authClient.sessions() }

            case let .sessionsResponse(.success(sessions)):
                state.isLoading = false
                state.sessions = IdentifiedArray(uniqueElements: sessions.sorted { $0.lastUsedAt > $1.lastUsedAt })
                return .none

            case let .revokeButtonTapped(id):
                // This device's own session is signed out from the profile, not revoked here.
                guard state.sessions[id: id] != nil, id != state.currentID, !state.revokingIDs.contains(id) else { return .none }
                state.revokingIDs.insert(id)
                return .catching({ .revokeResponse(id, $0) }) {
                    try await authClient.revoke(id)
                    return true
                }

            case let .revokeResponse(id, .success):
                state.revokingIDs.remove(id)
                state.sessions.remove(id: id)
                // A secret still on screen must not look usable once its token is revoked.
                if state.createdToken?.session.id == id { state.createdToken = nil }
                return .none

            case let .revokeResponse(id, .failure(error)):
                state.revokingIDs.remove(id)
                state.destination = .alert(.failure(error))
                return .none

            case .binding:
                return .none

            case .createTokenButtonTapped:
                let name = state.tokenName.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !state.isCreating else { return .none }
                guard !name.isEmpty else {
                    state.destination = .alert(
                        .failure(
                            UserFacingError(message: Words.app("app.error.tokenName"), reason: .invalid(field: "name"))))
                    return .none
                }
                state.isCreating = true
                let scope = state.tokenScope
                return .catching(Action.createTokenResponse) { try await authClient.createToken(name, scope) }

            case let .createTokenResponse(.success(token)):
                state.isCreating = false
                state.tokenName = ""
                // The next token starts at the least it can do again, as the form did at first.
                state.tokenScope = .checkIn
                state.createdToken = token
                state.sessions.insert(token.session, at: 0)
                return .none

            case .tokenDismissed:
                state.createdToken = nil
                return .none

            case let .sessionsResponse(.failure(error)), let .createTokenResponse(.failure(error)):
                state.isLoading = false
                state.isCreating = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
