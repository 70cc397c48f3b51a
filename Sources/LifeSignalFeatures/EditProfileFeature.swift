import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// Editing my names and emergency note, checked with `Validation` before saving.
public struct EditProfileFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var firstName: String
        public var lastName: String
        public var emergencyNote: String
        public var isSaving = false
        @PresentationState public var destination: Destination.State?

        public init(user: User) {
            self.firstName = user.firstName
            self.lastName = user.lastName
            self.emergencyNote = user.emergencyNote
        }

        public var noteCharactersLeft: Int { Validation.noteLimit - emergencyNote.count }
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case saveButtonTapped
        case saveResponse(Result<User, UserFacingError>)
        case cancelButtonTapped
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case saved(User)
            case cancelled
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.userClient) var userClient

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case .binding:
                return .none

            case .saveButtonTapped:
                guard !state.isSaving else { return .none }
                let checked = state.checked {
                    ProfileChanges(
                        firstName: try Validation.name($0.firstName, field: "firstName"),
                        lastName: try Validation.name($0.lastName, field: "lastName"),
                        emergencyNote: try Validation.emergencyNote($0.emergencyNote))
                }
                guard let changes = checked else { return .none }
                state.isSaving = true
                state.destination = nil
                return .catching(Action.saveResponse) { try await userClient.updateProfile(changes) }

            case let .saveResponse(.success(user)):
                state.isSaving = false
                return .send(.delegate(.saved(user)))

            case let .saveResponse(.failure(error)):
                state.isSaving = false
                state.destination = .alert(.failure(error))
                return .none

            case .cancelButtonTapped:
                return .send(.delegate(.cancelled))

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
