import ComposableCore
import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// The sheet for choosing the rhythm — a rolling interval, a deadline by a time every day, or a
/// call every day — and the reminders before the deadline. Nothing is saved here: the choice
/// goes to the parent as a delegate action.
public struct IntervalSelectionFeature: Reducer, Sendable {
    /// "By 09:30 and by 21:30", each time on its days, in a time zone (the device's when first
    /// chosen).
    public typealias DailyTime = DailySchedule

    public struct State: Equatable, Sendable {
        public var checkInInterval: TimeInterval
        /// Set when the rhythm is a daily deadline; nil for a rolling interval.
        public var daily: DailyTime?
        /// Set when the rhythm is "call me every day"; `number` holds what she typed (nil: her
        /// own phone) until it is saved.
        public var dailyCall: DailyCall?
        public var reminders: ReminderChoice
        /// The presets of `CheckInSchedule.intervalPresets`, in seconds.
        public var availableIntervals: [TimeInterval] = CheckInSchedule.intervalPresets.map(TimeInterval.init)
        public var availableReminders: [ReminderChoice] = ReminderChoice.allCases
        /// The choices for a daily call: tries, and minutes between them (as the web offers).
        public var availableAttempts: [Int] = Array(DailyCall.attemptRange)
        public var availableRetryMinutes: [Int] = DailyCall.retryPresets
        /// Why the current choice can't be saved, from `Validation.schedule`.
        public var validationError: String?

        public init(
            checkInInterval: TimeInterval, reminders: ReminderChoice, daily: DailyTime? = nil, dailyCall: DailyCall? = nil
        ) {
            self.checkInInterval = checkInInterval
            self.reminders = reminders
            self.daily = daily
            self.dailyCall = dailyCall
        }

        /// The rhythm as chosen.
        public var schedule: CheckInSchedule {
            if let dailyCall { return .dailyCall(dailyCall) }
            return daily.map(CheckInSchedule.daily) ?? .interval(seconds: Int(checkInInterval))
        }

        /// The reminder choice is hidden for a daily call: the calls are the reminders (the
        /// server sends none before its deadline), and the choice is kept for a later interval.
        public var showsReminders: Bool { dailyCall == nil }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        /// A rolling interval (also switches away from a daily deadline).
        case intervalSelected(TimeInterval)
        /// "By HH:MM every day", in the zone already chosen or this device's: one time only.
        case dailyTimeSelected(hour: Int, minute: Int)
        /// One more time of day ("and by 21:30"), every day until its days are chosen; the
        /// first one when the rhythm was not a daily deadline.
        case dailyTimeAdded(hour: Int, minute: Int)
        /// The time at `index` (earliest first) taken away; the last one stays.
        case dailyTimeRemoved(index: Int)
        /// The days of the time at `index`, ISO numbered (1 Monday … 7 Sunday).
        case dailyTimeWeekdaysSelected(index: Int, weekdays: Set<Int>)
        /// "Call me every day at HH:MM", in the zone already chosen or this device's; the
        /// call's other choices are kept, or the defaults.
        case dailyCallTimeSelected(hour: Int, minute: Int)
        /// How many times the call is tried when no key is pressed.
        case dailyCallAttemptsSelected(Int)
        case dailyCallRetrySelected(minutes: Int)
        /// The days she is called, ISO numbered (1 Monday … 7 Sunday).
        case dailyCallWeekdaysSelected(Set<Int>)
        /// The number to ring as she types it; empty rings her own phone.
        case dailyCallNumberChanged(String)
        case remindersSelected(ReminderChoice)
        case saveButtonTapped
        case cancelButtonTapped
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case intervalsSelected(checkInInterval: TimeInterval, reminders: ReminderChoice)
            /// A daily deadline was chosen.
            case dailyDeadlineSelected(DailyTime, reminders: ReminderChoice)
            /// A daily call was chosen, its number in E.164 (nil: her own phone). No reminders
            /// come with it: the calls are the reminders.
            case dailyCallSelected(DailyCall)
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
                state.dailyCall = nil
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .dailyTimeSelected(hour, minute):
                let zone = state.daily?.timeZone ?? state.dailyCall?.timeZone ?? timeZone.identifier
                state.daily = DailyTime(hour: hour, minute: minute, timeZone: zone)
                state.dailyCall = nil
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .dailyTimeAdded(hour, minute):
                let zone = state.daily?.timeZone ?? state.dailyCall?.timeZone ?? timeZone.identifier
                let time = DailySchedule.Time(hour: hour, minute: minute)
                state.daily = DailySchedule(times: (state.daily?.times ?? []) + [time], timeZone: zone)
                state.dailyCall = nil
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .dailyTimeRemoved(index):
                guard var daily = state.daily, daily.times.indices.contains(index), daily.times.count > 1 else { return .none }
                daily.times.remove(at: index)
                state.daily = daily
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .dailyTimeWeekdaysSelected(index, weekdays):
                guard var daily = state.daily, daily.times.indices.contains(index) else { return .none }
                daily.times[index].weekdays = weekdays
                state.daily = DailySchedule(times: daily.times, timeZone: daily.timeZone)
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .dailyCallTimeSelected(hour, minute):
                var call =
                    state.dailyCall
                    ?? DailyCall(hour: hour, minute: minute, timeZone: state.daily?.timeZone ?? timeZone.identifier)
                (call.hour, call.minute) = (hour, minute)
                state.dailyCall = call
                state.daily = nil
                state.validationError = Self.validate(state.schedule, state.reminders)
                return .none

            case let .dailyCallAttemptsSelected(attempts):
                return Self.changeDailyCall(&state) { $0.attempts = attempts }

            case let .dailyCallRetrySelected(minutes):
                return Self.changeDailyCall(&state) { $0.retryMinutes = minutes }

            case let .dailyCallWeekdaysSelected(weekdays):
                return Self.changeDailyCall(&state) { $0.weekdays = weekdays }

            case let .dailyCallNumberChanged(text):
                return Self.changeDailyCall(&state) {
                    $0.number = text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : text
                }

            case let .remindersSelected(reminders):
                state.reminders = reminders
                state.validationError = Self.validate(state.schedule, reminders)
                return .none

            case .saveButtonTapped:
                if let message = Self.validate(state.schedule, state.reminders) {
                    state.validationError = message
                    return .none
                }
                if var call = state.dailyCall {
                    // Sent as the server keeps it; validate just said it reads.
                    call.number = call.number.flatMap { try? Validation.phone($0) }
                    return .send(.delegate(.dailyCallSelected(call)))
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

    /// One of the daily call's choices; nothing happens before a call time is chosen.
    static func changeDailyCall(_ state: inout State, _ change: (inout DailyCall) -> Void) -> Effect<Action> {
        guard var call = state.dailyCall else { return .none }
        change(&call)
        state.dailyCall = call
        state.validationError = validate(state.schedule, state.reminders)
        return .none
    }

    /// The server's own checks: the rhythm, and a daily call's number must read as one (the
    /// server also wants it proved under Channels, which only it can tell).
    static func validate(_ schedule: CheckInSchedule, _ reminders: ReminderChoice) -> String? {
        do {
            try Validation.schedule(schedule, reminders: reminders)
            if let number = schedule.dailyCall?.number { _ = try Validation.phone(number) }
            return nil
        } catch {
            return error.message(in: Words.app)
        }
    }
}
