import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Asking to link with someone: a typed code, a scanned QR or an opened `lifesignal://contact/…`
/// link is looked up first, so the person sees who it is (a name, never the emergency note)
/// before choosing the roles — at least one — and sending the request. The link exists once the
/// other person accepts.
public struct AddContactFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var codeInput: String
        /// The code the preview was looked up with, as `Validation.contactCode` normalised it.
        public var code: String?
        public var preview: ContactPreview?
        public var roles: ContactRoles
        public var isLookingUp = false
        public var isAdding = false
        @PresentationState public var destination: Destination.State?

        public init(codeInput: String = "", roles: ContactRoles = .responder) {
            self.codeInput = codeInput
            self.roles = roles
        }

        public var canAdd: Bool { preview != nil && code != nil && !roles.isEmpty && !isAdding }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case codeInputChanged(String)
        case lookUpButtonTapped
        /// A QR code was scanned or a `lifesignal://contact/…` link opened the app.
        case linkOpened(String)
        case lookUpResponse(Result<ContactPreview, UserFacingError>)
        case responderToggled(Bool)
        case dependentToggled(Bool)
        case addButtonTapped
        case addResponse(Result<ContactRequest, UserFacingError>)
        case cancelButtonTapped
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// The request went out; nothing is shared until they accept.
            case requestSent(ContactRequest)
            case cancelled
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.contactClient) var contactClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .codeInputChanged(input):
                state.codeInput = input
                state.preview = nil
                state.code = nil
                // A lookup of the code before this edit would show a person she no longer typed.
                state.isLookingUp = false
                return .cancel(id: CancelID.lookUp)

            case .lookUpButtonTapped:
                return lookUp(&state)

            case let .linkOpened(link):
                state.codeInput = link
                state.preview = nil
                return lookUp(&state)

            case let .lookUpResponse(.success(preview)):
                state.isLookingUp = false
                state.preview = preview
                return .none

            case let .lookUpResponse(.failure(error)):
                state.isLookingUp = false
                state.code = nil
                state.destination = .alert(.failure(error))
                return .none

            case let .responderToggled(isOn):
                if isOn { state.roles.insert(.responder) } else { state.roles.remove(.responder) }
                return .none

            case let .dependentToggled(isOn):
                if isOn { state.roles.insert(.dependent) } else { state.roles.remove(.dependent) }
                return .none

            case .addButtonTapped:
                guard let code = state.code, state.preview != nil, !state.isAdding else { return .none }
                guard !state.roles.isEmpty else {
                    state.destination = .alert(
                        .failure(
                            UserFacingError(
                                message: Words.app("app.error.roles"), reason: .invalid(field: "roles"))))
                    return .none
                }
                state.isAdding = true
                let roles = state.roles
                return .catching(Action.addResponse) { try await contactClient.add(code, roles) }

            case let .addResponse(.success(request)):
                state.isAdding = false
                return .send(.delegate(.requestSent(request)))

            case let .addResponse(.failure(error)):
                state.isAdding = false
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

    private func lookUp(_ state: inout State) -> Effect<Action> {
        guard let code = state.checked({ try Validation.contactCode($0.codeInput) }) else { return .none }
        state.code = code
        state.isLookingUp = true
        state.destination = nil
        return .catching(Action.lookUpResponse) { try await contactClient.lookUp(code) }
            .cancellable(id: CancelID.lookUp, cancelInFlight: true)
    }

    enum CancelID { case lookUp }
}
