import Foundation
import LifeSignalModels

/// The steps the engine takes for one deadline, in order.
public struct EscalationStep: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// "Check in within N minutes", `leadSeconds` before the deadline.
        case reminder(leadSeconds: Int)
        /// Try `attempt` (1-based) of her daily call: the call is the reminder and the check-in.
        case call(attempt: Int)
        /// At the deadline: the person is now non-responsive.
        case lastCall
        /// After grace: a missed-check-in incident opens and responders are told.
        case openIncident
    }

    public var kind: Kind
    public var at: Date

    public init(kind: Kind, at: Date) {
        self.kind = kind
        self.at = at
    }
}

/// Settings of the escalation that are the service's, not the person's.
public struct EscalationPolicy: Hashable, Sendable {
    /// Time between repeated notifications of an unacknowledged incident.
    public var repeatInterval: TimeInterval
    /// How many notifications a missed-check-in incident sends before it just stays open.
    public var maxNotifications: Int
    /// Manual alerts repeat until acknowledged, up to this many notifications.
    public var maxAlertNotifications: Int
    /// How long an acknowledgement ("I'm on it") holds without resolution.
    public var claimDuration: TimeInterval
    /// How long after the last step of a ladder nobody may have said "I'm on it" before the
    /// ladder is exhausted: every responder is called and the person is called back.
    public var exhaustAfter: TimeInterval

    public static let `default` = EscalationPolicy(
        repeatInterval: 15 * 60, maxNotifications: 8, maxAlertNotifications: 96, claimDuration: 3600, exhaustAfter: 30 * 60)

    public init(
        repeatInterval: TimeInterval, maxNotifications: Int, maxAlertNotifications: Int, claimDuration: TimeInterval,
        exhaustAfter: TimeInterval = 30 * 60
    ) {
        self.repeatInterval = repeatInterval
        self.maxNotifications = maxNotifications
        self.maxAlertNotifications = maxAlertNotifications
        self.claimDuration = claimDuration
        self.exhaustAfter = exhaustAfter
    }

    /// When the next repeat of an incident is due after `count` notifications at `lastAt`, or nil when done.
    public func nextNotification(kind: Incident.Kind, count: Int, lastAt: Date) -> Date? {
        let limit = kind == .manualAlert ? maxAlertNotifications : maxNotifications
        return count < limit ? lastAt.addingTimeInterval(repeatInterval) : nil
    }
}

public enum EscalationPlan {
    /// Reminders, last call and incident for a deadline. A reminder that would fall before
    /// the period began (`periodStart`) is left out.
    public static func steps(
        deadline: Date, graceMinutes: Int, reminders: ReminderChoice, periodStart: Date
    ) -> [EscalationStep] {
        var steps = reminders.leadSeconds.compactMap { lead -> EscalationStep? in
            let at = deadline.addingTimeInterval(-TimeInterval(lead))
            return at > periodStart ? EscalationStep(kind: .reminder(leadSeconds: lead), at: at) : nil
        }
        steps.append(EscalationStep(kind: .lastCall, at: deadline))
        steps.append(EscalationStep(kind: .openIncident, at: deadline.addingTimeInterval(TimeInterval(graceMinutes * 60))))
        return steps
    }

    /// The steps of a daily call's deadline: each try of the call, then the incident at the
    /// deadline itself (the minutes after the last try are the grace). A try that would fall
    /// before the period began is left out.
    public static func steps(deadline: Date, call: DailyCall, periodStart: Date) -> [EscalationStep] {
        let first = Deadline.firstCall(before: deadline, call)
        var steps = (0..<call.attempts).compactMap { index -> EscalationStep? in
            let at = first.addingTimeInterval(TimeInterval(index * call.retryMinutes * 60))
            return at > periodStart ? EscalationStep(kind: .call(attempt: index + 1), at: at) : nil
        }
        steps.append(EscalationStep(kind: .openIncident, at: deadline))
        return steps
    }

    public static func steps(for user: User) -> [EscalationStep] {
        let start = Deadline.period(of: user).start
        if let call = user.schedule.dailyCall { return steps(deadline: Deadline.of(user), call: call, periodStart: start) }
        let plan = steps(deadline: Deadline.of(user), graceMinutes: user.graceMinutes, reminders: user.reminders, periodStart: start)
        guard let quiet = user.quietHours else { return plan }
        return holding(plan, for: quiet, timeZone: user.timeZone)
    }

    /// Her quiet hours applied to a plan: a reminder inside them moves to their end when that is
    /// still before the deadline (the last call), else is left out; a reminder that would then
    /// come with or after the next one is left out too (one reminder says it). The last call and
    /// the incident never move.
    public static func holding(_ plan: [EscalationStep], for quiet: QuietHours, timeZone: String) -> [EscalationStep] {
        guard let deadline = plan.first(where: { $0.kind == .lastCall })?.at else { return plan }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        var held: [EscalationStep] = []
        for step in plan {
            guard case .reminder = step.kind, QuietRule.contains(step.at, quiet, calendar: calendar) else {
                held.append(step)
                continue
            }
            let end = QuietRule.end(after: step.at, quiet, calendar: calendar)
            if end < deadline { held.append(EscalationStep(kind: step.kind, at: end)) }
        }
        return held.enumerated().filter { index, step in
            guard case .reminder = step.kind, index + 1 < held.count, case .reminder = held[index + 1].kind else { return true }
            return step.at < held[index + 1].at
        }.map(\.element)
    }

    /// Minutes between the deadline and the alert: her grace period, none on a daily call
    /// (its deadline already leaves time to answer the last try).
    public static func graceMinutes(of user: User) -> Int {
        user.schedule.dailyCall == nil ? user.graceMinutes : 0
    }

    /// When the engine must next look at a person who has done `stepsDone` steps of the plan:
    /// the next step's time, or the end of a pause. Nil when nothing is left to do.
    public static func nextActionAt(for user: User, stepsDone: Int, now: Date) -> Date? {
        // Watch-only: nothing is ever due.
        guard !user.watchOnly else { return nil }
        let plan = steps(for: user)
        guard stepsDone < plan.count else { return nil }
        var at = plan[stepsDone].at
        // Inside a pause nothing is sent; the engine looks again when the pause ends.
        if let pausedUntil = PauseRule.pausedUntil(at: max(at, now), user.pauses), at < pausedUntil { at = pausedUntil }
        return at
    }
}

/// Where one person stands in the plan for one deadline, as the engine holds it under the
/// person's lock.
public struct EscalationProgress: Hashable, Sendable {
    public var user: User
    /// The deadline the steps are for (the one stored when the plan was last written).
    public var deadline: Date
    /// How many steps of the plan were taken (or passed over) already.
    public var stepsDone: Int

    public init(user: User, deadline: Date, stepsDone: Int) {
        self.user = user
        self.deadline = deadline
        self.stepsDone = stepsDone
    }
}

/// A step of a plan whose time has come, as the engine is to take it.
public struct DueStep: Hashable, Sendable {
    /// Its place in the plan: once it is taken, `index + 1` steps are done.
    public var index: Int
    public var step: EscalationStep
    /// Taken more than the engine's `lateAfter` after its time (no engine ran then): its
    /// message says so.
    public var isLate: Bool
    /// A reminder whose deadline has passed as well: it is passed over, nothing is sent.
    public var isPassedOver: Bool
    /// The key of the notification it sends (none for opening an incident, whose alerts have
    /// keys of their own).
    public var key: StepKey?

    public init(index: Int, step: EscalationStep, isLate: Bool, isPassedOver: Bool = false, key: StepKey? = nil) {
        self.index = index
        self.step = step
        self.isLate = isLate
        self.isPassedOver = isPassedOver
        self.key = key
    }
}

extension EscalationPlan {
    /// The steps of `plan` due at `now` after the first `stepsDone`, in order: every step whose
    /// time has come, each marked late when it is more than `lateAfter` past its time. A
    /// reminder followed by a step also due is passed over (it would warn of a deadline that is
    /// gone). Works on any list of steps in time order, whatever their kinds.
    public static func due(
        in plan: [EscalationStep], after stepsDone: Int, now: Date, lateAfter: TimeInterval
    ) -> [DueStep] {
        var due: [DueStep] = []
        var index = max(0, stepsDone)
        while index < plan.count, plan[index].at <= now {
            let step = plan[index]
            var isPassedOver = false
            switch step.kind {
            case .reminder, .call: isPassedOver = index + 1 < plan.count && plan[index + 1].at <= now
            case .lastCall, .openIncident: break
            }
            due.append(
                DueStep(
                    index: index, step: step, isLate: now.timeIntervalSince(step.at) > lateAfter, isPassedOver: isPassedOver))
            index += 1
        }
        return due
    }

    /// The steps of a person's plan due at `now`, with the keys of the notifications they send.
    public static func due(state: EscalationProgress, now: Date, lateAfter: TimeInterval) -> [DueStep] {
        due(in: steps(for: state.user), after: state.stepsDone, now: now, lateAfter: lateAfter).map { due in
            var due = due
            switch due.step.kind {
            case let .reminder(lead):
                due.key = .reminder(user: state.user.id, deadline: state.deadline, leadSeconds: lead)
            case .lastCall: due.key = .lastCall(user: state.user.id, deadline: state.deadline)
            case let .call(attempt): due.key = .dailyCall(user: state.user.id, deadline: state.deadline, attempt: attempt)
            case .openIncident: due.key = nil
            }
            return due
        }
    }

    /// How many steps are done once `due` is taken, after `stepsDone` before.
    public static func stepsDone(after due: [DueStep], from stepsDone: Int) -> Int {
        due.last.map { $0.index + 1 } ?? stepsDone
    }
}
