import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// The check-in screen: the countdown to the deadline, its colour, the check-in button with
/// its cooldown, check-ins queued while offline, and the interval sheet.
public struct CheckInFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var lastCheckIn: Date?
        public var nextCheckInDue: Date?
        public var checkInInterval: TimeInterval
        /// The daily deadlines, when the rhythm is a daily schedule ("by 09:30 and by 21:30").
        public var daily: IntervalSelectionFeature.DailyTime?
        /// The daily call, when the rhythm is one ("call me every day at 09:00").
        public var dailyCall: DailyCall?
        public var reminders: ReminderChoice
        /// The device time of the last tick; nil until the screen is active.
        public var now: Date?
        /// Ok, non-responsive, paused or alert, as the server last said.
        public var statusState: CheckInStatus.State = .ok
        /// Set while a pause is on: no reminders, no incidents until then.
        public var pausedUntil: Date?
        public var isCheckingIn = false
        /// Right after a check-in the button rests, so a double tap records one check-in.
        public var isCoolingDown = false
        /// Whether the network is there, and check-ins kept on the device until it returns.
        public var pending = PendingCheckInsFeature.State()
        /// Her rhythm before the changes on their way to the server, shown again if saving
        /// fails: the countdown never counts to a deadline the server does not have.
        public var rhythmBeforeSave: Rhythm?
        @PresentationState public var destination: Destination.State?

        public init(
            lastCheckIn: Date? = nil, nextCheckInDue: Date? = nil, checkInInterval: TimeInterval = 24 * 3600,
            reminders: ReminderChoice = .default
        ) {
            self.lastCheckIn = lastCheckIn
            self.nextCheckInDue = nextCheckInDue
            self.checkInInterval = checkInInterval
            self.reminders = reminders
        }

        public init(user: User) {
            self.init(
                lastCheckIn: user.lastCheckInAt, nextCheckInDue: Deadline.of(user),
                checkInInterval: TimeInterval(user.schedule.nominalSeconds), reminders: user.reminders)
            self.daily = Self.daily(user.schedule)
            self.dailyCall = user.schedule.dailyCall
        }

        static func daily(_ schedule: CheckInSchedule) -> IntervalSelectionFeature.DailyTime? {
            schedule.dailySchedule
        }

        /// Whole seconds until the deadline (negative past it); nil before the first tick.
        public var secondsLeft: Int? {
            guard let now, let nextCheckInDue else { return nil }
            return Int(nextCheckInDue.timeIntervalSince(now).rounded(.down))
        }

        /// Days, hours, minutes and seconds left, for the countdown; nil before the first tick.
        public var countdown: Countdown? { secondsLeft.map(Countdown.init(secondsLeft:)) }

        /// The status colour: plenty of time, getting close, overdue.
        public var urgency: StatusRule.Urgency? {
            secondsLeft.map { StatusRule.urgency(secondsLeft: $0, periodSeconds: Int(checkInInterval)) }
        }

        public var isCheckInButtonEnabled: Bool { !isCheckingIn && !isCoolingDown }

        /// Takes the server's view of where the person stands.
        mutating func apply(_ status: CheckInStatus) {
            lastCheckIn = status.lastCheckInAt
            nextCheckInDue = status.deadline
            // A rhythm put back after a failed save keeps the deadline the server gives now.
            rhythmBeforeSave?.nextCheckInDue = status.deadline
            statusState = status.state
            pausedUntil = status.pausedUntil
        }

        /// Takes down the alert about an earlier failure, leaving a sheet in place.
        mutating func dismissAlert() {
            if destination.is(\.alert) { destination = nil }
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case checkInButtonTapped
        /// "I'm OK, but please call me today": a check-in that also asks her responders, quietly
        /// and once a day, for a call.
        case callMeTapped
        case checkInResponse(Result<CheckInOutcome, UserFacingError>)
        /// "I'm OK, give me 2 more hours": her next deadline later, once, before it comes.
        case addTimeTapped(minutes: Int)
        case addTimeResponse(Result<CheckInStatus, UserFacingError>)
        case setCheckInInterval(TimeInterval)
        case setReminders(ReminderChoice)
        case scheduleSaved(Result<User, UserFacingError>)
        case intervalSelectionButtonTapped

        case appBecameActive
        case appBecameInactive
        case timerTick
        case cooldownEnded
        case statusResponse(Result<CheckInStatus, UserFacingError>)
        case pending(PendingCheckInsFeature.Action)

        case destination(PresentationAction<Destination.Action>)
        /// Shows an error from elsewhere on this screen (the seeds' `setError`), or takes down
        /// the one shown.
        case setError(UserFacingError?)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// The schedule was saved; the server's copy of the person.
            case scheduleChanged(User)
        }
    }

    public struct Destination: Reducer {
        @CasePathable
        public enum State: Equatable, Sendable {
            case intervalSelection(IntervalSelectionFeature.State)
            case alert(AlertState<Never>)
        }

        @CasePathable
        public enum Action: Equatable, Sendable {
            case intervalSelection(IntervalSelectionFeature.Action)
            case alert(Never)
        }

        public var body: some ReducerOf<Self> {
            Scope(state: \.intervalSelection, action: \.intervalSelection) {
                IntervalSelectionFeature()
            }
        }
    }

    enum CancelID { case timer, cooldown }

    /// How long the button rests after a check-in.
    static let cooldown: Duration = .seconds(30)

    @Dependency(\.checkInClient) var checkInClient
    @Dependency(\.userClient) var userClient
    @Dependency(\.localNotificationClient) var localNotifications
    @Dependency(\.continuousClock) var clock
    @Dependency(\.date) var date
    @Dependency(\.uuid) var uuid
    @Dependency(\.hapticsClient) var haptics

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.pending, action: \.pending) {
            PendingCheckInsFeature()
        }
        Reduce { state, action in
            switch action {
            case .checkInButtonTapped:
                guard state.isCheckInButtonEnabled else { return .none }
                state.isCheckingIn = true
                let id = CheckInID(uuid())
                let clientAt = date.now
                return .catching(Action.checkInResponse) { try await checkInClient.checkIn(id, clientAt) }

            case .callMeTapped:
                guard state.isCheckInButtonEnabled else { return .none }
                state.isCheckingIn = true
                let id = CheckInID(uuid())
                let clientAt = date.now
                return .catching(Action.checkInResponse) { try await checkInClient.callMe(id, clientAt) }

            case let .checkInResponse(.success(.recorded(result))):
                state.isCheckingIn = false
                state.dismissAlert()
                // Who was asked for a call, that she had asked already, or that nobody could be.
                if let callRequest = result.callRequest { state.destination = .alert(.callRequested(callRequest)) }
                state.apply(result.status)
                state.lastCheckIn = result.status.lastCheckInAt ?? result.checkIn.at
                state.pending.remove(result.checkIn.id)
                // The tap that tells the hand it worked, as the seeds' check-in does.
                return .merge(startCooldown(&state), scheduleReminders(state), .run { _ in await haptics.play(.success) })

            case let .checkInResponse(.success(.queued(pending))):
                // Not an error: the check-in is safe on the device and goes out when the
                // network returns (its id makes a repeat harmless).
                state.isCheckingIn = false
                state.pending.queue(pending)
                return startCooldown(&state)

            case let .checkInResponse(.failure(error)):
                state.isCheckingIn = false
                state.destination = .alert(.failure(error))
                return .none

            case let .addTimeTapped(minutes):
                guard !state.isCheckingIn else { return .none }
                state.isCheckingIn = true
                return .catching(Action.addTimeResponse) { try await checkInClient.addTime(minutes) }

            case let .addTimeResponse(.success(status)):
                state.isCheckingIn = false
                state.apply(status)
                // Her reminders on this device move with the deadline.
                return scheduleReminders(state)

            case let .addTimeResponse(.failure(error)):
                state.isCheckingIn = false
                state.destination = .alert(.failure(error))
                return .none

            case let .setCheckInInterval(interval):
                state.changingRhythm()
                state.checkInInterval = interval
                state.daily = nil
                state.dailyCall = nil
                if let lastCheckIn = state.lastCheckIn {
                    state.nextCheckInDue = Deadline.next(after: lastCheckIn, schedule: .interval(seconds: Int(interval)))
                }
                return save(ProfileChanges(schedule: .interval(seconds: Int(interval))))

            case let .setReminders(reminders):
                state.changingRhythm()
                state.reminders = reminders
                return save(ProfileChanges(reminders: reminders))

            case let .scheduleSaved(.success(user)):
                state.rhythmBeforeSave = nil
                state.checkInInterval = TimeInterval(user.schedule.nominalSeconds)
                state.daily = State.daily(user.schedule)
                state.dailyCall = user.schedule.dailyCall
                state.reminders = user.reminders
                state.lastCheckIn = user.lastCheckInAt
                state.nextCheckInDue = Deadline.of(user)
                return .merge(scheduleReminders(state), .send(.delegate(.scheduleChanged(user))))

            case let .scheduleSaved(.failure(error)):
                if let before = state.rhythmBeforeSave {
                    state.rhythm = before
                    state.rhythmBeforeSave = nil
                }
                state.destination = .alert(.failure(error))
                return .none

            case .intervalSelectionButtonTapped:
                state.destination = .intervalSelection(
                    IntervalSelectionFeature.State(
                        checkInInterval: state.checkInInterval, reminders: state.reminders, daily: state.daily,
                        dailyCall: state.dailyCall))
                return .none

            case .appBecameActive:
                state.now = date.now
                return .merge(
                    .run { send in
                        for await _ in clock.timer(interval: .seconds(1)) {
                            await send(.timerTick)
                        }
                    }
                    .cancellable(id: CancelID.timer, cancelInFlight: true),
                    // The status first, then the queue, in that order, as one effect.
                    .run { send in
                        await send(.statusResponse(Result.catching { try await checkInClient.status() }))
                        await send(.pending(.loaded(await checkInClient.pending())))
                    },
                    // Run in place rather than sent, so no extra action goes through the store.
                    PendingCheckInsFeature().reduce(into: &state.pending, action: .startObserving)
                        .map(Action.pending)
                )

            case .appBecameInactive:
                return .merge(
                    .cancel(id: CancelID.timer),
                    PendingCheckInsFeature().reduce(into: &state.pending, action: .stopObserving)
                        .map(Action.pending)
                )

            case .timerTick:
                state.now = date.now
                return .none

            case .cooldownEnded:
                state.isCoolingDown = false
                return .none

            case let .statusResponse(.success(status)):
                state.apply(status)
                return .none

            case let .statusResponse(.failure(error)):
                state.destination = .alert(.failure(error))
                return .none

            case let .pending(.delegate(.sent(results))):
                guard let latest = results.last else { return .none }
                state.apply(latest.status)
                state.lastCheckIn = latest.status.lastCheckInAt ?? latest.checkIn.at
                return scheduleReminders(state)

            case let .pending(.delegate(.failed(error))):
                state.destination = .alert(.failure(error))
                return .none

            case .pending:
                return .none

            case let .destination(
                .presented(.intervalSelection(.delegate(.intervalsSelected(checkInInterval, reminders))))):
                // One save for both, so the countdown never shows half of the new choice.
                state.destination = nil
                state.changingRhythm()
                state.checkInInterval = checkInInterval
                state.daily = nil
                state.dailyCall = nil
                state.reminders = reminders
                let schedule = CheckInSchedule.interval(seconds: Int(checkInInterval))
                if let lastCheckIn = state.lastCheckIn {
                    state.nextCheckInDue = Deadline.next(after: lastCheckIn, schedule: schedule)
                }
                return save(ProfileChanges(schedule: schedule, reminders: reminders))

            case let .destination(.presented(.intervalSelection(.delegate(.dailyDeadlineSelected(daily, reminders))))):
                state.destination = nil
                state.changingRhythm()
                let schedule = CheckInSchedule.daily(daily)
                state.checkInInterval = TimeInterval(schedule.nominalSeconds)
                state.daily = daily
                state.dailyCall = nil
                state.reminders = reminders
                if let lastCheckIn = state.lastCheckIn {
                    state.nextCheckInDue = Deadline.next(after: lastCheckIn, schedule: schedule)
                }
                return save(ProfileChanges(schedule: schedule, reminders: reminders))

            case let .destination(.presented(.intervalSelection(.delegate(.dailyCallSelected(call))))):
                // Shown once the server has it (`scheduleSaved`): it refuses a number she has not
                // proved under Channels, and this screen must never show calls that will not ring.
                // The schedule alone: her reminder choice stays for a return to an interval, and
                // the calls stand in for it meanwhile.
                state.destination = nil
                return save(ProfileChanges(schedule: .dailyCall(call)))

            case .destination(.presented(.intervalSelection(.delegate(.cancelled)))):
                state.destination = nil
                return .none

            case .destination:
                return .none

            case let .setError(error?):
                state.destination = .alert(.failure(error))
                return .none

            case .setError(nil):
                state.dismissAlert()
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            Destination()
        }
    }

    private func startCooldown(_ state: inout State) -> Effect<Action> {
        state.isCoolingDown = true
        return .run { [clock] send in
            try await clock.sleep(for: Self.cooldown)
            await send(.cooldownEnded)
        }
        .cancellable(id: CancelID.cooldown, cancelInFlight: true)
    }

    private func save(_ changes: ProfileChanges) -> Effect<Action> {
        .catching(Action.scheduleSaved) { try await userClient.updateProfile(changes) }
    }
}

extension AlertState where Action == Never {
    /// The confirmation of "please call me today", in the app's language (``Words/app``).
    static func callRequested(_ request: CallRequest) -> Self {
        let w = Words.app
        return AlertState(title: w("app.callMe.title"), message: request.sentence(w), buttons: [.cancel(w("app.ok"))])
    }
}
