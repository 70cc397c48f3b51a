import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Home: my contact code (QR, link, text) for others to add me, the interval and reminder
/// pickers — each change confirmed before it is saved — and how LifeSignal works.
public struct HomeFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var user: User
        public var contactCode: ContactCode?
        public var isLoadingCode = false
        public var isSaving = false
        public var availableIntervals: [TimeInterval] = CheckInSchedule.intervalPresets.map(TimeInterval.init)
        /// "Check on me by 18:00": her plans, beside the rhythm.
        public var plans = PlansFeature.State()
        @PresentationState public var destination: Destination.State?

        public init(user: User) {
            self.user = user
        }

        public var checkInInterval: TimeInterval { TimeInterval(user.schedule.nominalSeconds) }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case contactCodeResponse(Result<ContactCode, UserFacingError>)
        case qrCodeButtonTapped
        case rotateCodeButtonTapped
        case rotateCodeResponse(Result<ContactCode, UserFacingError>)
        case intervalPicked(TimeInterval)
        case remindersPicked(ReminderChoice)
        case profileSaved(Result<User, UserFacingError>)
        case instructionsButtonTapped
        case plans(PlansFeature.Action)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case userChanged(User)
        }
    }

    /// What Home presents. A confirmation is an alert whose button carries what it confirms.
    public struct Destination: Reducer {
        @CasePathable
        public enum State: Equatable, Sendable {
            case qrCode(ContactCode)
            case instructions
            case alert(AlertState<Alert>)
        }

        @CasePathable
        public enum Action: Equatable, Sendable {
            case alert(Alert)
        }

        public enum Alert: Equatable, Sendable {
            case confirmIntervalChange(TimeInterval)
            case confirmRemindersChange(ReminderChoice)
            case confirmRotateCode
        }

        public var body: some ReducerOf<Self> {
            EmptyReducer()
        }
    }

    @Dependency(\.contactClient) var contactClient
    @Dependency(\.userClient) var userClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.plans, action: \.plans) { PlansFeature() }
        Reduce { state, action in
            switch action {
            case .plans:
                return .none
            case .task:
                guard state.contactCode == nil else { return .none }
                state.isLoadingCode = true
                return .catching(Action.contactCodeResponse) { try await contactClient.contactCode() }

            case let .contactCodeResponse(.success(code)), let .rotateCodeResponse(.success(code)):
                state.isLoadingCode = false
                state.contactCode = code
                state.user.contactCode = code.code
                return .none

            case let .contactCodeResponse(.failure(error)), let .rotateCodeResponse(.failure(error)):
                state.isLoadingCode = false
                state.destination = .alert(.failure(error))
                return .none

            case .qrCodeButtonTapped:
                guard let code = state.contactCode else { return .none }
                state.destination = .qrCode(code)
                return .none

            case .rotateCodeButtonTapped:
                state.destination = .alert(.confirmRotateCode)
                return .none

            case let .intervalPicked(interval):
                guard state.user.schedule != .interval(seconds: Int(interval)) else { return .none }
                if let message = IntervalSelectionFeature.validate(.interval(seconds: Int(interval)), state.user.reminders) {
                    state.destination = .alert(.failure(UserFacingError(message: message, reason: .invalid(field: "schedule"))))
                    return .none
                }
                state.destination = .alert(.confirmIntervalChange(interval))
                return .none

            case let .remindersPicked(reminders):
                guard reminders != state.user.reminders else { return .none }
                guard state.passes({ try Validation.schedule($0.user.schedule, reminders: reminders) }) else { return .none }
                state.destination = .alert(.confirmRemindersChange(reminders))
                return .none

            case let .destination(.presented(.alert(.confirmIntervalChange(interval)))):
                return save(ProfileChanges(schedule: .interval(seconds: Int(interval))), &state)

            case let .destination(.presented(.alert(.confirmRemindersChange(reminders)))):
                return save(ProfileChanges(reminders: reminders), &state)

            case .destination(.presented(.alert(.confirmRotateCode))):
                state.isLoadingCode = true
                return .catching(Action.rotateCodeResponse) { try await contactClient.rotateCode() }

            case let .profileSaved(.success(user)):
                state.isSaving = false
                state.user = user
                return .send(.delegate(.userChanged(user)))

            case let .profileSaved(.failure(error)):
                state.isSaving = false
                state.destination = .alert(.failure(error))
                return .none

            case .instructionsButtonTapped:
                state.destination = .instructions
                return .none

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            Destination()
        }
    }

    private func save(_ changes: ProfileChanges, _ state: inout State) -> Effect<Action> {
        state.isSaving = true
        return .catching(Action.profileSaved) { try await userClient.updateProfile(changes) }
    }
}

/// Said in the app's language (``Words/app``).
extension AlertState where Action == HomeFeature.Destination.Alert {
    static func confirmIntervalChange(_ interval: TimeInterval) -> Self {
        let w = Words.app
        return AlertState(
            title: w("app.interval.confirm"),
            buttons: [ButtonState(w("app.change"), action: .confirmIntervalChange(interval)), .cancel(w("app.cancel"))])
    }

    static func confirmRemindersChange(_ reminders: ReminderChoice) -> Self {
        let w = Words.app
        return AlertState(
            title: w("app.reminders.confirm"),
            buttons: [ButtonState(w("app.change"), action: .confirmRemindersChange(reminders)), .cancel(w("app.cancel"))])
    }

    /// In the web app's words.
    static var confirmRotateCode: Self {
        let w = Words.app
        return AlertState(
            title: w("app.code.confirm"), message: w("app.code.confirmMessage"),
            buttons: [ButtonState(w("app.code.new"), action: .confirmRotateCode), .cancel(w("app.cancel"))])
    }
}
