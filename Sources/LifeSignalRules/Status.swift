import Foundation
import LifeSignalModels

/// Derives what a person's status card shows.
public enum StatusRule {
    public static func status(of user: User, openIncidents: [Incident], now: Date) -> CheckInStatus {
        let deadline = Deadline.of(user)
        let pause = PauseRule.current(at: now, user.pauses)
        let paused = pause != nil
        let alert = openIncidents.first { $0.kind == .manualAlert }
        let open = alert ?? openIncidents.first
        let state: CheckInStatus.State =
            if alert != nil { .alert } else if user.watchOnly { .watching } else if paused { .paused } else if now >= deadline {
                .nonResponsive
            } else { .ok }
        return CheckInStatus(
            userID: user.id, lastCheckInAt: user.lastCheckInAt, deadline: deadline,
            secondsLeft: Int(deadline.timeIntervalSince(now).rounded(.down)), state: state,
            pausedUntil: PauseRule.pausedUntil(at: now, user.pauses), pausedBy: pause?.setByName,
            nextPause: PauseRule.next(after: now, user.pauses),
            openIncident: open.map {
                IncidentSummary(
                    id: $0.id, kind: $0.kind, openedAt: $0.openedAt, dueAt: $0.dueAt, acknowledgedBy: $0.acknowledgedBy,
                    acknowledgedAt: $0.acknowledgedBy == nil ? nil : $0.acknowledgedAt, step: $0.ladder?.told,
                    steps: $0.ladder?.steps.count, nextStepAt: $0.acknowledgedBy == nil ? $0.ladder?.nextStepAt : nil,
                    exhaustedAt: $0.ladder?.exhaustedAt)
            },
            periodSeconds: user.schedule.nominalSeconds, timeZone: user.timeZone)
    }

    /// The status colour of the apps: plenty of time, getting close, overdue.
    public enum Urgency: String, Sendable, Equatable {
        case plenty, close, overdue
    }

    /// "Getting close" is the last quarter of the period or the last two hours, whichever is shorter.
    public static func urgency(secondsLeft: Int, periodSeconds: Int) -> Urgency {
        if secondsLeft <= 0 { return .overdue }
        let threshold = min(periodSeconds / 4, 7200)
        return secondsLeft <= threshold ? .close : .plenty
    }
}
