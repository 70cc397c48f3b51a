import LifeSignalModels

/// Home: the person's status and check-in button, what happens to their open alert, and the
/// people they watch over, an open incident of one of them on top.
struct HomePage: WebPage {
    static let template = "home"
    static let section: NavSection? = .home
    let title = "Check in"
    let status: StatusView
    let checkInID: String
    /// What the page says once a check-in made from it has gone through.
    let checkedIn: String
    let rhythm: String
    let reminder: String
    let graceMinutes: Int
    let reminders: [Choice]
    let rhythmForm: RhythmForm
    var help: HelpView?
    /// The local emergency number (112, 911, 999, 000…), offered beside the SOS with a Call link.
    let emergencyNumber: String
    var pendingPings: String?
    var noResponders = false
    var isWatcher = false
    var watched: [WatchedView] = []
    var takeovers: [TakeoverView] = []
}

/// One person a responder watches over, as Home lists them.
struct WatchedView {
    let id: String
    let name: String
    let status: StatusView?

    init(_ contact: Contact) {
        id = contact.userID.description
        name = contact.fullName
        status = contact.status.map(StatusView.init)
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
    let since: String
    let note: String?
    let acknowledgedByMe: Bool
    /// "You are" or "Bob is", when someone is on it.
    let acknowledgedBy: String?

    init?(_ contact: Contact, caller: UserID) {
        guard let incident = contact.status?.openIncident else { return nil }
        userID = contact.userID.description
        incidentID = incident.id.description
        name = contact.fullName
        firstName = contact.firstName.isEmpty ? contact.fullName : contact.firstName
        phone = contact.phone
        isSOS = incident.kind == .manualAlert
        since = WebController.formatDate(incident.openedAt)
        note = contact.emergencyNote.nonEmpty
        acknowledgedByMe = incident.acknowledgedBy == caller
        acknowledgedBy = incident.acknowledgedBy == caller ? "You are" : incident.acknowledgedByName.map { "\($0) is" }
    }
}

/// The confirmation of a new rhythm, which moves the deadline: it says where to.
struct ConfirmRhythmPage: WebPage {
    static let template = "confirm-rhythm"
    static let section: NavSection? = .home
    let title = "Change your rhythm"
    let rhythmLabel: String
    let reminderLabel: String
    let deadline: String
    /// The form sent again with `confirm=yes`.
    let reminders: String
    let rhythmKind: String
    let interval: Int?
    let dailyTime: String?
    let timeZone: String?

    init(schedule: CheckInSchedule, reminders: ReminderChoice, deadline: String) {
        rhythmLabel = WebController.rhythmLabel(schedule)
        reminderLabel = WebController.reminderChoices.first { $0.0 == reminders }?.1 ?? ""
        self.deadline = deadline
        self.reminders = reminders.rawValue
        switch schedule {
        case let .interval(seconds):
            (rhythmKind, interval, dailyTime, timeZone) = ("interval", seconds, nil, nil)
        case let .daily(hour, minute, zone):
            (rhythmKind, interval, dailyTime, timeZone) = ("daily", nil, String(format: "%02d:%02d", hour, minute), zone.nonEmpty)
        }
    }
}
