import ComposableCore
import Foundation
import LifeSignalModels
import LifeSignalRules

/// The sheet for choosing the check-in interval and the reminders before the deadline.
/// Nothing is saved here: the choice goes to the parent as a delegate action.
public struct IntervalSelectionFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var checkInInterval: TimeInterval
        public var reminders: ReminderChoice
        /// The presets of `CheckInSchedule.intervalPresets`, in seconds.
        public var availableIntervals: [TimeInterval] = CheckInSchedule.intervalPresets.map(TimeInterval.init)
        public var availableReminders: [ReminderChoice] = ReminderChoice.allCases
        /// Why the current choice can't be saved, from `Validation.schedule`.
        public var validationError: String?

        public init(checkInInterval: TimeInterval, reminders: ReminderChoice) {
            self.checkInInterval = checkInInterval
            self.reminders = reminders
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case intervalSelected(TimeInterval)
        case remindersSelected(ReminderChoice)
        case saveButtonTapped
        case cancelButtonTapped
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case intervalsSelected(checkInInterval: TimeInterval, reminders: ReminderChoice)
            case cancelled
        }
    }

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .intervalSelected(interval):
                state.checkInInterval = interval
                state.validationError = Self.validate(interval, state.reminders)
                return .none

            case let .remindersSelected(reminders):
                state.reminders = reminders
                state.validationError = Self.validate(state.checkInInterval, reminders)
                return .none

            case .saveButtonTapped:
                if let message = Self.validate(state.checkInInterval, state.reminders) {
                    state.validationError = message
                    return .none
                }
                return .send(
                    .delegate(.intervalsSelected(checkInInterval: state.checkInInterval, reminders: state.reminders)))

            case .cancelButtonTapped:
                return .send(.delegate(.cancelled))

            case .delegate:
                return .none
            }
        }
    }

    static func validate(_ interval: TimeInterval, _ reminders: ReminderChoice) -> String? {
        do {
            try Validation.schedule(.interval(seconds: Int(interval)), reminders: reminders)
            return nil
        } catch {
            return error.message
        }
    }
}
