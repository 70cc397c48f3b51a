import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// Sign-in: a phone number (national number plus a region, made E.164 by
/// `Validation.phone`), then the 6-digit SMS code, with a countdown before a resend.
public struct SignInFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var phone: PhoneNumberFeature.State
        public var step: Step = .phone
        public var code = ""
        public var isSendingCode = false
        public var isVerifying = false
        /// Seconds until another code may be asked for; 0 when it may.
        public var resendSecondsLeft = 0
        @PresentationState public var destination: Destination.State?

        public init(region: PhoneRegion = .unitedStates) {
            phone = PhoneNumberFeature.State(region: region)
        }

        public var canResend: Bool { resendSecondsLeft == 0 && !isSendingCode }
    }

    public enum Step: Equatable, Sendable {
        case phone
        /// A code was sent to `request.phone`.
        case code(CodeRequest)
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case phone(PhoneNumberFeature.Action)
        case sendCodeButtonTapped
        case codeRequestResponse(Result<CodeRequest, UserFacingError>)
        case codeChanged(String)
        case verifyButtonTapped
        case verifyResponse(Result<SignInResult, UserFacingError>)
        case resendButtonTapped
        case resendTimerTicked
        case changeNumberButtonTapped
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case signedIn(SignInResult)
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    enum CancelID { case resendTimer }

    @Dependency(\.authClient) var authClient
    @Dependency(\.continuousClock) var clock
    @Dependency(\.date) var date

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.phone, action: \.phone) {
            PhoneNumberFeature()
        }
        Reduce { state, action in
            switch action {
            case .phone:
                return .none

            case .sendCodeButtonTapped:
                guard !state.isSendingCode else { return .none }
                guard let phone = state.checked({ try $0.phone.e164() }) else { return .none }
                return requestCode(phone, &state)

            case let .codeRequestResponse(.success(request)):
                state.isSendingCode = false
                state.destination = nil
                state.step = .code(request)
                state.code = ""
                state.resendSecondsLeft = max(0, Int(request.resendAfter.timeIntervalSince(date.now).rounded(.up)))
                guard state.resendSecondsLeft > 0 else { return .cancel(id: CancelID.resendTimer) }
                return .run { send in
                    for await _ in clock.timer(interval: .seconds(1)) {
                        await send(.resendTimerTicked)
                    }
                }
                .cancellable(id: CancelID.resendTimer, cancelInFlight: true)

            case let .codeRequestResponse(.failure(error)):
                state.isSendingCode = false
                state.destination = .alert(.failure(error))
                return .none

            case let .codeChanged(code):
                state.code = Validation.typedCode(code)
                return .none

            case .verifyButtonTapped:
                guard case let .code(request) = state.step, !state.isVerifying else { return .none }
                guard let code = state.checked({ try Validation.code($0.code) }) else { return .none }
                state.isVerifying = true
                let phone = request.phone
                return .catching(Action.verifyResponse) { try await authClient.verifyCode(phone, code) }

            case let .verifyResponse(.success(result)):
                state.isVerifying = false
                state.destination = nil
                return .merge(.cancel(id: CancelID.resendTimer), .send(.delegate(.signedIn(result))))

            case let .verifyResponse(.failure(error)):
                state.isVerifying = false
                state.destination = .alert(.failure(error))
                return .none

            case .resendButtonTapped:
                guard case let .code(request) = state.step, state.canResend else { return .none }
                return requestCode(request.phone, &state)

            case .resendTimerTicked:
                state.resendSecondsLeft = max(0, state.resendSecondsLeft - 1)
                return state.resendSecondsLeft == 0 ? .cancel(id: CancelID.resendTimer) : .none

            case .changeNumberButtonTapped:
                state.step = .phone
                state.code = ""
                state.resendSecondsLeft = 0
                return .cancel(id: CancelID.resendTimer)

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }

    private func requestCode(_ phone: String, _ state: inout State) -> Effect<Action> {
        state.isSendingCode = true
        state.destination = nil
        return .catching(Action.codeRequestResponse) { try await authClient.requestCode(phone) }
    }
}
