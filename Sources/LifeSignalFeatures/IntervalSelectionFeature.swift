import ComposableCore
import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// The sheet for choosing the rhythm — a rolling interval, or a deadline by a time every day —
/// and the reminders before the deadline. Nothing is saved here: the choice goes to the
/// parent as a delegate action.
public struct IntervalSelectionFeature: Reducer, Sendable {
    /// "By 09:30 every day", in a time zone (the device's when first chosen).
    public struct DailyTime: Equatable, Sendable {
        public var hour: Int
        public var minute: Int
        public var timeZone: String

        public init(hour: Int, minute: Int, timeZone: String) {
            self.hour = hour
            self.minute = minute
            self.timeZone = timeZone
        }

        public var schedule: CheckInSchedule { .daily(hour: hour, minute: minute, timeZone: timeZone) }
    }

    public struct State: Equatable, Sendable {
        public var checkInInterval: TimeInterval
        /// Set when the rhythm is a daily deadline; nil for a rolling interval.
        public var daily: DailyTime?
        public var reminders: ReminderChoice
        /// The presets of `CheckInSchedule.intervalPresets`, in seconds.
        public var availableIntervals: [TimeInterval] = CheckInSchedule.intervalPresets.map(TimeInterval.init)
        public var availableReminders: [ReminderChoice] = ReminderChoice.allCases
        /// Why the current choice can't be saved, from `Validation.schedule`.
        public var validationError: String?

        public init(checkInInterval: TimeInterval, reminders: ReminderChoice, daily: DailyTime? = nil) {
            self.checkInInterval = checkInInterval
            self.reminders = reminders
            self.daily = daily
        }

        /// The rhythm as chosen.
        public var schedule: CheckInSchedule { daily?.schedule ?? .interval(seconds: Int(checkInInterval)) }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        /// A rolling interval (also switches away from a daily deadline).
        case intervalSelected(TimeInterval)
        /// "By HH:MM every day", in the zone already chosen or this device's.
        case dailyTimeSelected(hour: Int, minute: Int)
        case remindersSelected(ReminderChoice)
        case saveButtonTapped
        case cancelButtonTapped
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case intervalsSelected(checkInInterval: TimeInterval, reminders: ReminderChoice)
            /// A daily deadline was chosen.
            case dailyDeadlineSelected(DailyTime, reminders: ReminderChoice)
            case cancelled
        }
    }

    @Dependency(\.timeZone) var timeZone

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .intervalSelected(interval):
                state.checkInInterval = interval
                state.daily = nil
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .dailyTimeSelected(hour, minute):
                state.daily = DailyTime(hour: hour, minute: minute, timeZone: state.daily?.timeZone ?? timeZone.identifier)
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .remindersSelected(reminders):
                state.reminders = reminders
                state.validationError = Self.validate(state.schedule, reminders)
                return .none

            case .saveButtonTapped:
                if let message = Self.validate(state.schedule, state.reminders) {
                    state.validationError = message
                    return .none
                }
                if let daily = state.daily {
                    return .send(.delegate(.dailyDeadlineSelected(daily, reminders: state.reminders)))
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

    static func validate(_ schedule: CheckInSchedule, _ reminders: ReminderChoice) -> String? {
        do {
            try Validation.schedule(schedule, reminders: reminders)
            return nil
        } catch {
            return error.message(in: Words.app)
        }
    }
}
