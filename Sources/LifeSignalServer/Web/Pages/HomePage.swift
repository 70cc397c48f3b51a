import Foundation
import LifeSignalModels
import LifeSignalRules

/// Home: the person's status and check-in button, what happens to their open alert, and the
/// people they watch over, an open incident of one of them on top.
struct HomePage: WebPage {
    static let template = "home"
    static let section: NavSection? = .home
    let title = say("web.home.title")
    let status: StatusView
    let checkInID: String
    /// What the page says once a check-in made from it has gone through.
    let checkedIn: String
    let rhythm: String
    let reminder: String
    /// "grace 15 min".
    let graceLine: String
    let reminders: [Choice]
    let rhythmForm: RhythmForm
    var help: HelpView?
    /// During her own alert, with sharing on: what her responders are shown of her location, or
    /// that it could not be read.
    var ownLocation: OwnLocationLine?
    /// The local emergency number (112, 911, 999, 000…), offered beside the SOS with a Call link.
    let emergencyNumber: String
    /// "Call 112" (during her alert) and "Call 112, the emergency services." (beside the SOS).
    let callEmergency: String
    let emergencyLink: String
    var pendingPings: String?
    /// During grace (past the deadline, nobody alerted yet): when the alert goes out and to whom,
    /// or that nobody is set up to be alerted.
    var grace: GraceView?
    var noResponders = false
    var isWatcher = false
    var watched: [WatchedView] = []
    var takeovers: [TakeoverView] = []
    /// "Ada is safe — checked in today at 09:40 their time": an alert of someone he watches
    /// over has ended, until he says he has seen it.
    var allClears: [AllClearView] = []
    /// Watch-only: the people they watch over come first (stored: templates read stored fields).
    var watchedFirst = false
    /// "Need more time? +1 h +2 h" before her deadline, once per deadline (nil: not offered).
    var moreTime: MoreTimeView?
}

/// "Give me more time" on Home: the presets, or that she already added time to this deadline.
struct MoreTimeView {
    let choices: [Choice]
    let already: Bool

    /// Offered before her rhythm's deadline, on a rhythm she checks in to herself.
    init?(_ user: User, now: Date) {
        guard !user.watchOnly, user.schedule.dailyCall == nil, now < Deadline.ofRhythm(user) else { return nil }
        already = user.addedTime?.from == Deadline.ofRhythm(user)
        let most = AddTimeRule.mostMinutes(for: user)
        choices = AddTimeRule.presets.filter { $0 <= most }.map {
            Choice(value: String($0), label: say("web.home.addTime", ["duration": ReaderClock.current.words.duration(seconds: $0 * 60)]))
        }
    }
}

/// The person's own grace period, in words: what happens next unless they check in.
struct GraceView {
    let line: String
    let nobody: Bool

    init(alertAt: Date, responders: [String]) {
        let when = WebController.formatDate(alertAt)
        nobody = responders.isEmpty
        line =
            nobody
            ? say("web.home.graceNobody")
            : say("web.home.grace", ["when": when, "names": LifeSignalFormat.names(responders)])
    }
}

/// An ended alert of someone a responder watches over, until he marks it seen.
struct AllClearView {
    let notificationID: String
    let title: String
    let body: String

    init(_ notification: Notification) {
        notificationID = notification.id.description
        title = notification.title
        body = notification.body
    }
}

/// One person a responder watches over, as Home lists them.
struct WatchedView {
    let id: String
    let name: String
    let status: StatusView?
    /// "asked for a call today": she pressed "please call me today" (on her calendar day).
    var askedForCall: String?

    init(_ contact: Contact) {
        id = contact.userID.description
        name = contact.fullName
        status = contact.status.map { StatusView($0, about: true) }
    }
}

/// The takeover of a responder's Home while someone they watch over has an open incident.
struct TakeoverView {
    let userID: String
    let incidentID: String
    let name: String
    let firstName: String
    let phone: String
    let isSOS: Bool
    /// "Ada needs help", "Ada missed a check-in".
    let heading: String
    let callLabel: String
    let textLabel: String
    /// "Missed the check-in due today at 09:30 their time (03:30 yours)." — the deadline they
    /// missed, not the moment the alert went out; for an SOS, when it was raised.
    let since: String
    let note: String?
    let acknowledgedByMe: Bool
    /// "You are on it." or "Bob is on it.", when someone is.
    let acknowledgedBy: String?
    /// Her last location, beside Call (``LocationShown``), when she shares it.
    var location: LocationShown?

    init?(_ contact: Contact, caller: UserID) {
        guard let incident = contact.status?.openIncident else { return nil }
        userID = contact.userID.description
        incidentID = incident.id.description
        name = contact.fullName
        firstName = contact.firstName.isEmpty ? contact.fullName : contact.firstName
        phone = contact.phone
        isSOS = incident.kind == .manualAlert
        // Late back from a plan is said as such, as the incident's own page says it.
        let (titleKey, sinceKey) =
            switch incident.kind {
            case .manualAlert: ("web.takeover.titleSOS", "web.takeover.sinceSOS")
            case .planOverdue: ("web.takeover.titlePlan", "web.takeover.sincePlan")
            case .missedCheckIn: ("web.takeover.titleMissed", "web.takeover.sinceMissed")
            }
        heading = say(titleKey, ["name": name])
        callLabel = say("web.person.call", ["name": firstName])
        textLabel = say("web.person.text", ["name": firstName])
        let zone = contact.status?.timeZone
        let when = isSOS ? incident.openedAt : incident.dueAt ?? contact.status?.deadline
        since = say(sinceKey, ["when": WebController.formatDate(when, about: zone)])
        note = contact.emergencyNote.nonEmpty
        acknowledgedByMe = incident.acknowledgedBy == caller
        acknowledgedBy =
            incident.acknowledgedBy == caller
            ? say("web.takeover.youOnIt") : incident.acknowledgedByName.map { say("web.takeover.otherOnIt", ["name": $0]) }
    }
}

/// The confirmation of a new rhythm, which moves the deadline: it says where to.
struct ConfirmRhythmPage: WebPage {
    static let template = "confirm-rhythm"
    static let section: NavSection? = .home
    let title = say("web.confirmRhythm.title")
    let rhythmLabel: String
    let reminderLabel: String
    /// "Your next deadline becomes **tomorrow at 09:30**, counted from your last check-in."
    let deadlineLine: Emphasis
    /// Set when the new rhythm's deadline has already passed: when her responders are alerted.
    var overdue: String?
    /// The form sent again with `confirm=yes`.
    let reminders: String
    let rhythmKind: String
    let interval: Int?
    /// The daily schedule's times and days, sent again as they were chosen.
    let dailyFields: [DailyTimesForm.HiddenField]
    let timeZone: String?
    /// The daily call's fields, sent again as they were chosen.
    let call: CallFields?

    struct CallFields {
        let time: String
        let attempts: Int
        let retryMinutes: Int
        let number: String
    }

    init(schedule: CheckInSchedule, reminders: ReminderChoice, deadline: String) {
        rhythmLabel = WebController.rhythmLabel(schedule)
        reminderLabel = WebController.reminderLabel(reminders)
        deadlineLine = Emphasis("web.confirmRhythm.deadline", "when", deadline)
        self.reminders = reminders.rawValue
        call = schedule.dailyCall.map {
            CallFields(time: $0.time, attempts: $0.attempts, retryMinutes: $0.retryMinutes, number: $0.number ?? "")
        }
        switch schedule {
        case let .interval(seconds):
            (rhythmKind, interval, dailyFields, timeZone) = (RhythmForm.Answer.interval.rawValue, seconds, [], nil)
        case let .daily(daily):
            (rhythmKind, interval, dailyFields, timeZone) = (
                RhythmForm.Answer.daily.rawValue, nil, DailyTimesForm.hiddenFields(daily), daily.timeZone.nonEmpty
            )
        case let .dailyCall(call):
            (rhythmKind, interval, dailyFields, timeZone) = (RhythmForm.Answer.dailyCall.rawValue, nil, [], call.timeZone.nonEmpty)
        }
    }
}
