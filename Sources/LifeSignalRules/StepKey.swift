import Foundation
import LifeSignalModels

/// The idempotency key of one notification: a second notification with a key already used
/// is not sent, so a step retried after a crash, taken by two engines at once, or pressed
/// twice tells nobody twice.
///
/// Every key is made here and nowhere else. The text is stored with each notification
/// (`notifications.step_key`) and compared with keys made later, possibly by an older or a
/// newer release: a key's spelling never changes (the table test in `StepKeyTests` pins it).
public struct StepKey: Hashable, Sendable, CustomStringConvertible {
    /// The text stored with the notification.
    public let rawValue: String

    private init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    // MARK: - A person's deadline

    /// "Check in within N minutes" before one deadline, `leadSeconds` ahead of it.
    public static func reminder(user: UserID, deadline: Date, leadSeconds: Int) -> StepKey {
        StepKey("\(deadlinePrefix(user, deadline)):reminder:\(leadSeconds)")
    }

    /// "You missed your check-in", at one deadline.
    public static func lastCall(user: UserID, deadline: Date) -> StepKey {
        StepKey("\(deadlinePrefix(user, deadline)):last_call")
    }

    /// Try `attempt` of her daily call, for one deadline.
    public static func dailyCall(user: UserID, deadline: Date, attempt: Int) -> StepKey {
        StepKey("\(deadlinePrefix(user, deadline)):call:\(attempt)")
    }

    /// "Today's 09:00 call to Ada could not be placed", to one responder: once per calendar
    /// day in her zone (`day` is `YYYY-MM-DD`), however many tries failed.
    public static func dailyCallFailed(user: UserID, day: String, responder: UserID) -> StepKey {
        StepKey("user:\(user):call_failed:\(day):\(responder)")
    }

    /// "Bob marked you away until …", to her, once per away set at `at`.
    public static func away(person: UserID, at: Date) -> StepKey {
        StepKey("user:\(person):away:\(milliseconds(at))")
    }

    /// Consent call number `attempt` of a request for daily calls.
    public static func dailyCallConsent(setup: DailyCallSetupID, attempt: Int) -> StepKey {
        StepKey("daily_call_setup:\(setup):consent:\(attempt)")
    }

    /// The asker told how a request for daily calls ended (once: it ends once).
    public static func dailyCallSetupAnswered(setup: DailyCallSetupID) -> StepKey {
        StepKey("daily_call_setup:\(setup):answered")
    }

    // MARK: - Plans

    /// One step of a plan (the reminder, "you're late"), for one due time: an extension makes
    /// a new due time and its own steps.
    public static func plan(_ plan: PlanID, dueAt: Date, step: String) -> StepKey {
        StepKey("plan:\(plan):due:\(milliseconds(dueAt)):\(step)")
    }

    /// A plan's headline told to one responder when it starts (once per plan and responder).
    public static func planStarted(_ plan: PlanID, responder: UserID) -> StepKey {
        StepKey("plan:\(plan):started:\(responder)")
    }

    private static func deadlinePrefix(_ user: UserID, _ deadline: Date) -> String {
        "user:\(user):deadline:\(milliseconds(deadline))"
    }

    // MARK: - An incident

    /// The alert to one responder, in one round of an incident (1 when it opens).
    public static func alertRound(incident: IncidentID, round: Int, responder: UserID) -> StepKey {
        StepKey("incident:\(incident):round:\(round):\(responder)")
    }

    /// A cleared manual alert raised again, to one responder, once per coalescing window.
    public static func raisedAgain(incident: IncidentID, window: Int, responder: UserID) -> StepKey {
        StepKey("incident:\(incident):again:\(window):\(responder)")
    }

    /// "Bob and Cy have been alerted", to the person an incident is about.
    public static func alerted(incident: IncidentID, person: UserID) -> StepKey {
        StepKey("incident:\(incident):alerted:\(person)")
    }

    /// "Bob read your sealed details", to the person: once per responder and alert.
    public static func sealedRead(incident: IncidentID, by responder: UserID, person: UserID) -> StepKey {
        StepKey("incident:\(incident):sealed:\(responder):\(person)")
    }

    /// "Bob is on it", to the person, for an acknowledgement made at `at` (not through a claim).
    public static func onIt(incident: IncidentID, at: Date, person: UserID) -> StepKey {
        StepKey("incident:\(incident):ack:\(milliseconds(at)):\(person)")
    }

    /// "Bob's claim lapsed", to the person, for the claim that lapsed at `at`.
    public static func claimLapsed(incident: IncidentID, at: Date, person: UserID) -> StepKey {
        StepKey("incident:\(incident):lapsed:\(milliseconds(at)):\(person)")
    }

    /// A responder's claim ("I'm on it") told to `recipient`, once per responder and window.
    public static func claimed(incident: IncidentID, by responder: UserID, window: Int64, to recipient: UserID) -> StepKey {
        StepKey("\(claimPrefix(incident, responder, window)):\(recipient)")
    }

    /// A claim that took over another responder's, told to the responder it was taken from.
    public static func takenOver(incident: IncidentID, by responder: UserID, window: Int64, from holder: UserID) -> StepKey {
        StepKey("\(claimPrefix(incident, responder, window)):takeover:\(holder)")
    }

    private static func claimPrefix(_ incident: IncidentID, _ responder: UserID, _ window: Int64) -> String {
        "incident:\(incident):ack:\(responder):w\(window)"
    }

    /// "We could not reach Cy", to `recipient`, for one undeliverable alert notification.
    public static func unreachable(incident: IncidentID, notification: NotificationID, to recipient: UserID) -> StepKey {
        StepKey("incident:\(incident):unreachable:\(notification):\(recipient)")
    }

    /// "Ben has now been told too", to `recipient`, when an incident's ladder reached `step` (1-based).
    public static func climbed(incident: IncidentID, step: Int, to recipient: UserID) -> StepKey {
        StepKey("incident:\(incident):step:\(step):\(recipient)")
    }

    /// "Nobody has confirmed they are coming", to `recipient`, once per incident.
    public static func exhausted(incident: IncidentID, to recipient: UserID) -> StepKey {
        StepKey("incident:\(incident):exhausted:\(recipient)")
    }

    /// "Your claim lapsed", to the responder whose claim (made at `at`) lapsed.
    public static func claimLapsedToHolder(incident: IncidentID, at: Date, holder: UserID) -> StepKey {
        StepKey("incident:\(incident):lapsed:\(milliseconds(at)):holder:\(holder)")
    }

    /// "Ann is safe", to one recipient, after `round` rounds were notified.
    public static func resolved(incident: IncidentID, round: Int, recipient: UserID) -> StepKey {
        StepKey("incident:\(incident):resolved:\(round):\(recipient)")
    }

    // MARK: - Other notices

    /// A responder checked in on someone's behalf, told to `recipient`.
    public static func checkedInOnBehalf(of person: UserID, checkIn: CheckInID, to recipient: UserID) -> StepKey {
        StepKey("behalf:\(person):\(checkIn):\(recipient)")
    }

    /// "Ada would like a call today", to one responder: once per person, calendar day in her
    /// zone (`day`, from ``localDay(_:in:)``) and recipient, however often she asks.
    public static func callRequest(person: UserID, day: String, to recipient: UserID) -> StepKey {
        StepKey("call-request:\(person):\(day):\(recipient)")
    }

    /// The calendar day of `instant` in `zone`, as a call request's key spells it: "2026-11-27".
    public static func localDay(_ instant: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let day = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", day.year ?? 0, day.month ?? 0, day.day ?? 0)
    }

    /// A drill's alert to one responder.
    public static func drill(_ drill: DrillID, responder: UserID) -> StepKey {
        StepKey("drill:\(drill):\(responder)")
    }

    /// The notice that an existing link's roles need the person's consent.
    public static func consentNotice(user: UserID, contact: UserID) -> StepKey {
        StepKey("consent-notice:\(user):\(contact)")
    }

    /// What happened to a ping, told once.
    public enum PingEvent: String, Sendable, CaseIterable {
        case sent, answered, cleared
    }

    /// A ping sent, answered or cleared.
    public static func ping(_ ping: PingID, _ event: PingEvent) -> StepKey {
        StepKey("ping:\(ping):\(event.rawValue)")
    }

    /// Whole milliseconds since 1970, rounded down: how a time is spelled in a key (as the
    /// store spells times).
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
