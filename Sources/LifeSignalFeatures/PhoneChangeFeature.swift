import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// Changing my phone number: the new number gets a code, and only the code confirms it.
public struct PhoneChangeFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var phone: PhoneNumberFeature.State
        /// The code request for the new number, once sent.
        public var request: CodeRequest?
        public var code = ""
        public var isSending = false
        public var isConfirming = false
        @PresentationState public var destination: Destination.State?

        public init(region: PhoneRegion = .unitedStates) {
            phone = PhoneNumberFeature.State(region: region)
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case phone(PhoneNumberFeature.Action)
        case sendCodeButtonTapped
        case codeRequestResponse(Result<CodeRequest, UserFacingError>)
        case codeChanged(String)
        case confirmButtonTapped
        case confirmResponse(Result<User, UserFacingError>)
        case cancelButtonTapped
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case phoneChanged(User)
            case cancelled
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.userClient) var userClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.phone, action: \.phone) {
            PhoneNumberFeature()
        }
        Reduce { state, action in
            switch action {
            case .phone(.numberChanged):
                // A code sent to the number before it changed confirms nothing now.
                state.request = nil
                return .none

            case .phone:
                return .none

            case .sendCodeButtonTapped:
                guard !state.isSending else { return .none }
                guard let phone = state.checked({ try $0.phone.e164() }) else { return .none }
                state.isSending = true
                state.destination = nil
                return .catching(Action.codeRequestResponse) { try await userClient.requestPhoneChange(phone) }

            case let .codeRequestResponse(.success(request)):
                state.isSending = false
                state.request = request
                state.code = ""
                return .none

            case let .codeRequestResponse(.failure(error)):
                state.isSending = false
                state.destination = .alert(.failure(error))
                return .none

            case let .codeChanged(code):
                state.code = Validation.typedCode(code)
                return .none

            case .confirmButtonTapped:
                guard let request = state.request, !state.isConfirming else { return .none }
                guard let code = state.checked({ try Validation.code($0.code) }) else { return .none }
                state.isConfirming = true
                state.destination = nil
                return .catching(Action.confirmResponse) {
                    try await userClient.confirmPhoneChange(request.phone, code)
                }

            case let .confirmResponse(.success(user)):
                state.isConfirming = false
                return .send(.delegate(.phoneChanged(user)))

            case let .confirmResponse(.failure(error)):
                state.isConfirming = false
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
