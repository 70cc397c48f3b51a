import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The web app's pages for the home page: status, check-in, SOS, and its live updates.
struct HomeRoutes: WebPageGroup {
    let pages: WebPages
    let checkIns: CheckIns
    let contacts: Contacts
    let incidents: Incidents
    let profiles: Profiles
    let notifications: Notifications
    let live: LiveUpdates
    let locations: Locations

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/") { _, context in
            try await signedIn(context) { caller in
                let user = try await profiles.profile(caller)
                let status = try await checkIns.status(caller)
                let lists = try await contacts.contacts(caller, sort: .urgency)
                let hasResponders = !lists.responders.isEmpty
                var home = HomePage(
                    status: StatusView(status), checkInID: UUID().uuidString.lowercased(),
                    checkedIn: WebController.checkedInMessage(before: status, hasResponders: hasResponders),
                    rhythm: WebController.rhythmLabel(user.schedule, watchOnly: user.watchOnly),
                    reminder: WebController.reminderLabel(user.reminders),
                    graceLine: say("web.home.graceMinutes", ["minutes": String(user.graceMinutes)]),
                    reminders: WebController.reminderOptions(selected: user.reminders),
                    rhythmForm: RhythmForm(user.schedule, watchOnly: user.watchOnly),
                    help: status.openIncident.map(HelpView.init),
                    emergencyNumber: EmergencyNumber.forPhone(user.phone),
                    callEmergency: say("web.home.callEmergency", ["number": EmergencyNumber.forPhone(user.phone)]),
                    emergencyLink: say("web.home.emergencyLink", ["number": EmergencyNumber.forPhone(user.phone)]))
                if status.openIncident == nil { home.moreTime = MoreTimeView(user, now: ReaderClock.current.now) }
                if status.openIncident != nil, user.shareLocation { home.ownLocation = OwnLocationLine(try await locations.own(caller)) }
                let askers = lists.responders.filter { $0.incomingPing?.isPending == true }.map(\.fullName)
                if !askers.isEmpty {
                    home.pendingPings = say("web.home.pendingPings", ["names": LifeSignalFormat.names(askers)])
                }
                if status.state == .nonResponsive, status.openIncident == nil {
                    home.grace = GraceView(
                        alertAt: status.deadline.addingTimeInterval(Double(user.graceMinutes) * 60),
                        responders: lists.responders.map(\.fullName))
                }
                // Someone who only watches over others needs nobody watching over them.
                home.noResponders = lists.responders.isEmpty && !user.watchOnly && home.grace == nil
                // A responder sees the people they watch over first, most urgent on top; an
                // open incident of one of them takes over the top of the page.
                home.watched = lists.dependents.map(WatchedView.init)
                if !lists.dependents.isEmpty {
                    let asked = try await askedForCallToday(caller, dependents: lists.dependents)
                    for index in home.watched.indices where asked.contains(lists.dependents[index].userID) {
                        home.watched[index].askedForCall = say("web.home.askedForCall")
                    }
                }
                home.isWatcher = !lists.dependents.isEmpty
                home.watchedFirst = home.isWatcher && status.state == .watching
                for var dependent in lists.dependents where dependent.status?.openIncident != nil {
                    // Read in full for who is on it.
                    // Unlinked since the list was read: the list's status stands.
                    dependent.status =
                        try await unlessRefused([.userNotFound]) { try await checkIns.status(caller, of: dependent.userID) }
                        ?? dependent.status
                    if var takeover = TakeoverView(dependent, caller: caller.user.id) {
                        // Her location first, beside Call (read as on the alert's page: the
                        // first look is recorded once).
                        if let id = dependent.status?.openIncident?.id,
                            let location = try await unlessRefused(
                                [.incidentNotFound, .incidentResolved],
                                {
                                    try await locations.forIncident(caller, incident: id)
                                })
                        {
                            takeover.location = LocationShown(location, name: takeover.firstName)
                        }
                        home.takeovers.append(takeover)
                    }
                }
                home.allClears = try await allClears(caller, dependents: lists.dependents)
                return try await page(home, context: context)
            }
        }
        web.post("/all-clear/{id}/seen") { _, context in
            try await action(context, to: "/") { caller in
                guard let id = context.parameters.get("id").flatMap(NotificationID.init(string:)) else { return nil }
                try await notifications.markNotificationRead(caller, id: id)
                return nil
            }
        }
        web.post("/later") { _, context in
            try await action(context, to: "/") { caller in
                let status = try await checkIns.addTime(caller, minutes: Int(context.form["minutes"] ?? "") ?? 0)
                return say("web.flash.timeAdded", ["when": WebController.formatDate(status.deadline)])
            }
        }
        web.post("/check-in") { request, context in
            let id = CheckInID(string: context.form["id"] ?? "") ?? CheckInID(UUID())
            let clientAt = context.form["clientAt"].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0 / 1000) }
            // "I'm OK — please call me today" is the same form's second button.
            let callMe = context.form["callMe"] == "yes"
            if request.headers[.accept]?.contains("application/json") == true {
                guard let caller = context.caller else { return Response(status: .unauthorized) }
                // The page's queue resends the same id until it is stored: a fresh id here would
                // record a new check-in at every try.
                guard CheckInID(string: context.form["id"] ?? "") != nil else { return Response(status: .badRequest) }
                do {
                    let result = try await checkIns.checkIn(caller, id: id, clientAt: clientAt, source: .web, callMe: callMe)
                    // The page counts a check-in as sent only when the answer names it stored;
                    // a call request adds what the page then says.
                    let stored = String(
                        decoding: try JSONEncoder().encode(
                            StoredCheckIn(
                                id: result.checkIn.id.description,
                                said: result.callRequest?.sentence(ReaderClock.current.words))),
                        as: UTF8.self)
                    return Response(
                        status: result.duplicate ? .ok : .created, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: stored)))
                } catch let error as ServiceError {
                    var response = Response(status: ErrorMiddleware<WebContext>.status(of: error.kind))
                    if let retry = error.retryAfter { response.headers[.retryAfter] = String(retry) }
                    return response
                }
            }
            return try await action(context, to: "/") { caller in
                let before = try await checkIns.status(caller)
                let result = try await checkIns.checkIn(caller, id: id, clientAt: clientAt, source: .web, callMe: callMe)
                let checkedIn = try await WebController.checkedInMessage(
                    before: before, hasResponders: !contacts.contacts(caller).responders.isEmpty)
                guard let call = result.callRequest else { return checkedIn }
                // "Nobody watches over you" once: the call's own sentence says it.
                return (call.outcome == .nobody ? say("web.js.checkedIn") : checkedIn) + " " + call.sentence(ReaderClock.current.words)
            }
        }
        web.post("/rhythm") { _, context in
            // A new rhythm moves the deadline: it is confirmed on a page that says where to.
            if RhythmForm.Answer(context.form) == .watch {
                // Nothing moves to confirm: no deadline any more.
                return try await action(context, to: "/") { caller in
                    _ = try await profiles.updateProfile(
                        caller,
                        ProfileChanges(
                            reminders: ReminderChoice(rawValue: context.form["reminders"] ?? ""), watchOnly: true))
                    return say("web.flash.watchOnly")
                }
            }
            if context.form["confirm"] != "yes", let caller = context.caller,
                let reminders = ReminderChoice(rawValue: context.form["reminders"] ?? "")
            {
                let user = try await profiles.profile(caller)
                guard let schedule = WebController.schedule(from: context.form, current: user.schedule) else {
                    return flashRedirect("/", say("web.flash.chooseRhythm"), context)
                }
                do throws(ValidationError) {
                    try Validation.schedule(schedule, reminders: reminders)
                } catch {
                    return flashRedirect("/", error.message(in: ReaderClock.current.words), context)
                }
                let deadline = profiles.deadline(of: user, withSchedule: schedule, reminders: reminders)
                var confirm = ConfirmRhythmPage(schedule: schedule, reminders: reminders, deadline: WebController.formatDate(deadline))
                // A change that puts the deadline behind her asks first, saying when the alert goes out.
                let now = ReaderClock.current.now
                if deadline <= now {
                    let minutes = Int(
                        (deadline.addingTimeInterval(Double(user.graceMinutes) * 60).timeIntervalSince(now) / 60).rounded(.up))
                    let responders = try await contacts.contacts(caller).responders.map(\.fullName)
                    confirm.overdue =
                        responders.isEmpty
                        ? say("web.confirmRhythm.overdueNobody")
                        : minutes > 0
                            ? say("web.confirmRhythm.overdueIn", ["names": LifeSignalFormat.names(responders)], count: minutes)
                            : say("web.confirmRhythm.overdueNow", ["names": LifeSignalFormat.names(responders)])
                }
                return try await page(confirm, context: context)
            }
            return try await action(context, to: "/") { caller in
                let current = try await profiles.profile(caller).schedule
                _ = try await profiles.updateProfile(
                    caller,
                    ProfileChanges(
                        schedule: WebController.schedule(from: context.form, current: current),
                        reminders: ReminderChoice(rawValue: context.form["reminders"] ?? ""), watchOnly: false))
                return say("web.flash.rhythmSaved")
            }
        }
        web.post("/sos") { _, context in
            try await action(context, to: "/") { caller in
                guard context.form["confirm"] == "yes" else {
                    throw ServiceError(.invalid, code: .invalidConfirm, say("web.flash.confirmSOS"))
                }
                _ = try await incidents.raiseAlert(caller)
                return WebController.alertRaisedMessage(responders: try await contacts.contacts(caller).responders)
            }
        }
        web.post("/sos/clear") { _, context in
            try await action(context, to: "/") { caller in
                guard context.form["confirm"] == "yes" else {
                    throw ServiceError(.invalid, code: .invalidConfirm, say("web.flash.confirmSafe"))
                }
                _ = try await incidents.clearAlert(caller)
                return try await contacts.contacts(caller).responders.isEmpty
                    ? say("web.flash.alertCleared") : say("web.flash.alertClearedTelling")
            }
        }
        web.get("/events") { _, context in
            guard let caller = context.caller else { return Response(status: .unauthorized) }
            let (events, end) = try live.subscribe(caller)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .init("X-Accel-Buffering")!: "no"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "retry: 3000\n\n: connected\n\n"))
                    try await EventStreamController.write(events, end: end, to: &writer)
                })
        }
    }
}

/// The page's queue's proof that a check-in is stored (`{"id":…,"stored":true}`), with what to
/// say when it asked for a call.
private struct StoredCheckIn: Encodable {
    var id: String
    var stored = true
    var said: String?
}

extension WebController {
    /// What the page says once an alert is raised (SOS, or a ping answered "I need help"):
    /// who is being told, never that they know.
    static func alertRaisedMessage(responders: [Contact]) -> String {
        responders.isEmpty
            ? say("web.flash.alertRaisedNobody")
            : say("web.flash.alertSent", ["names": LifeSignalFormat.names(responders.map(\.fullName))])
    }
}

extension HomeRoutes {
    /// The people he watches over who asked him for a call on their calendar day today: read
    /// from his own notification history (the `call_request`s he was sent), nothing stored apart.
    func askedForCallToday(_ caller: Caller, dependents: [Contact]) async throws -> Set<UserID> {
        let zones = Dictionary(
            dependents.map { ($0.userID, HumanTime.zone($0.status?.timeZone ?? "UTC")) }, uniquingKeysWith: { first, _ in first })
        let page = try await notifications.notifications(caller, category: .pings, unreadOnly: false, before: nil, limit: 50)
        let now = ReaderClock.current.now
        return Set(
            page.items.compactMap { item in
                guard item.type == .callRequest, let subject = item.subjectUserID, let zone = zones[subject],
                    StepKey.localDay(item.createdAt, in: zone) == StepKey.localDay(now, in: zone)
                else { return nil }
                return subject
            })
    }

    /// How long an ended alert stays on a responder's Home, unless he marks it seen first.
    static let allClearShownFor: TimeInterval = 12 * 3600

    /// The all-clears a responder has not seen yet, about people he still watches over who
    /// have no other alert open: the takeover that vanished says why.
    func allClears(_ caller: Caller, dependents: [Contact]) async throws -> [AllClearView] {
        let calm = Set(dependents.filter { $0.status?.openIncident == nil }.map(\.userID))
        guard !calm.isEmpty else { return [] }
        let page = try await notifications.notifications(caller, category: .alerts, unreadOnly: true, before: nil, limit: 25)
        let since = ReaderClock.current.now.addingTimeInterval(-Self.allClearShownFor)
        var seen = Set<UserID>()
        return page.items.compactMap { item in
            guard [.incidentResolved, .manualAlertCleared].contains(item.type), let subject = item.subjectUserID,
                calm.contains(subject), item.createdAt >= since,
                seen.insert(subject).inserted
            else { return nil }
            return AllClearView(item)
        }
    }
}
