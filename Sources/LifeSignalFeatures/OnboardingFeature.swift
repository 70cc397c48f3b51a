import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// The first run after sign-in: names, an optional emergency note, the check-in interval and
/// the reminders. Each step is checked with `Validation` before the next; the last one saves.
public struct OnboardingFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var step: Step = .names
        public var firstName: String
        public var lastName: String
        public var emergencyNote: String
        public var checkInInterval: TimeInterval
        public var reminders: ReminderChoice
        public var availableIntervals: [TimeInterval] = CheckInSchedule.intervalPresets.map(TimeInterval.init)
        public var isSaving = false
        @PresentationState public var destination: Destination.State?

        public init(user: User) {
            self.firstName = user.firstName
            self.lastName = user.lastName
            self.emergencyNote = user.emergencyNote
            self.checkInInterval = TimeInterval(user.schedule.nominalSeconds)
            self.reminders = user.reminders
        }
    }

    public enum Step: Int, CaseIterable, Equatable, Sendable {
        case names, emergencyNote, interval, reminders
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case nextButtonTapped
        case backButtonTapped
        case saveResponse(Result<User, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case completed(User)
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

            case .nextButtonTapped:
                guard !state.isSaving else { return .none }
                guard let changes = state.checked(Self.validated) else { return .none }
                state.destination = nil
                if let next = Step(rawValue: state.step.rawValue + 1) {
                    state.step = next
                    return .none
                }
                state.isSaving = true
                return .catching(Action.saveResponse) { try await userClient.updateProfile(changes) }

            case .backButtonTapped:
                guard !state.isSaving, let previous = Step(rawValue: state.step.rawValue - 1) else { return .none }
                state.step = previous
                state.destination = nil
                return .none

            case let .saveResponse(.success(user)):
                state.isSaving = false
                return .send(.delegate(.completed(user)))

            case let .saveResponse(.failure(error)):
                state.isSaving = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }

    /// Checks every step up to the current one and returns what they add up to.
    static func validated(_ state: State) throws(ValidationError) -> ProfileChanges {
        var changes = ProfileChanges()
        changes.firstName = try Validation.name(state.firstName, field: "firstName")
        changes.lastName = try Validation.name(state.lastName, field: "lastName")
        guard state.step.rawValue >= Step.emergencyNote.rawValue else { return changes }
        changes.emergencyNote = try Validation.emergencyNote(state.emergencyNote)
        guard state.step.rawValue >= Step.interval.rawValue else { return changes }
        let schedule = CheckInSchedule.interval(seconds: Int(state.checkInInterval))
        try Validation.schedule(schedule, reminders: .none)
        changes.schedule = schedule
        guard state.step == .reminders else { return changes }
        try Validation.schedule(schedule, reminders: state.reminders)
        changes.reminders = state.reminders
        return changes
    }
}
