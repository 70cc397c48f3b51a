import Foundation
import LifeSignalModels

/// The steps the engine takes for one deadline, in order.
public struct EscalationStep: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// "Check in within N minutes", `leadSeconds` before the deadline.
        case reminder(leadSeconds: Int)
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

    public static let `default` = EscalationPolicy(
        repeatInterval: 15 * 60, maxNotifications: 8, maxAlertNotifications: 96, claimDuration: 3600)

    public init(repeatInterval: TimeInterval, maxNotifications: Int, maxAlertNotifications: Int, claimDuration: TimeInterval) {
        self.repeatInterval = repeatInterval
        self.maxNotifications = maxNotifications
        self.maxAlertNotifications = maxAlertNotifications
        self.claimDuration = claimDuration
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

    public static func steps(for user: User) -> [EscalationStep] {
        var start = user.lastCheckInAt ?? user.createdAt
        if let pausedUntil = user.pausedUntil, pausedUntil > start { start = pausedUntil }
        return steps(deadline: Deadline.of(user), graceMinutes: user.graceMinutes, reminders: user.reminders, periodStart: start)
    }

    /// When the engine must next look at a person who has done `stepsDone` steps of the plan:
    /// the next step's time, or the end of a pause. Nil when nothing is left to do.
    public static func nextActionAt(for user: User, stepsDone: Int, now: Date) -> Date? {
        // Watch-only: nothing is ever due.
        guard !user.watchOnly else { return nil }
        let plan = steps(for: user)
        guard stepsDone < plan.count else { return nil }
        var at = plan[stepsDone].at
        // While paused nothing is sent; the engine looks again when the pause ends.
        if let pausedUntil = user.pausedUntil, pausedUntil > now, at < pausedUntil { at = pausedUntil }
        return at
    }
}
