import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// My sealed details: what the first person at my door needs (door code, key, medication).
/// Only my responders can open them, only during an alert about me, and I am told who did.
/// Loaded when the screen appears, checked with `Validation` before saving.
public struct SealedDetailsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var details = ""
        public var updatedAt: Date?
        public var isLoading = false
        public var isSaving = false
        @PresentationState public var destination: Destination.State?

        public init() {}

        public var charactersLeft: Int { Validation.sealedLimit - details.count }
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case task
        case loadResponse(Result<SealedDetails, UserFacingError>)
        case saveButtonTapped
        case saveResponse(Result<SealedDetails, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.userClient) var userClient

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.loadResponse) { try await userClient.sealedDetails() }

            case let .loadResponse(.success(sealed)), let .saveResponse(.success(sealed)):
                state.isLoading = false
                state.isSaving = false
                state.details = sealed.details
                state.updatedAt = sealed.updatedAt
                return .none

            case let .loadResponse(.failure(error)), let .saveResponse(.failure(error)):
                state.isLoading = false
                state.isSaving = false
                state.destination = .alert(.failure(error))
                return .none

            case .binding:
                return .none

            case .saveButtonTapped:
                guard !state.isSaving else { return .none }
                guard let details = state.checked({ try Validation.sealedDetails($0.details) }) else { return .none }
                state.isSaving = true
                state.destination = nil
                return .catching(Action.saveResponse) {
                    _ = try await userClient.updateProfile(ProfileChanges(sealedDetails: details))
                    return try await userClient.sealedDetails()
                }

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
