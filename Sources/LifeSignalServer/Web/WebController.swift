import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalPhone
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The web app: every page of LifeSignal as plain HTML forms (POST-redirect-GET), calling the
/// use cases of `LifeSignalCore` directly. A small script adds countdowns, SOS gestures and live
/// updates.
///
/// It puts the route groups together (`HomeRoutes`, `ContactRoutes`, …), each holding only the
/// use cases its pages use, and serves the static files. The statics on it are the web app's
/// shared wording and form helpers.
public struct WebController: Sendable {
    let useCases: UseCases
    /// The VAPID public key browsers subscribe with; nil when Web Push is not configured.
    let vapidPublicKey: String?
    /// LifeSignal's own number, which the daily-call pages tell people to save.
    let lifeSignalNumber: String?
    let now: @Sendable () -> Date

    init(useCases: UseCases, vapidPublicKey: String?, lifeSignalNumber: String?, now: @escaping @Sendable () -> Date) {
        self.useCases = useCases
        self.vapidPublicKey = vapidPublicKey
        self.lifeSignalNumber = lifeSignalNumber
        self.now = now
    }

    public func addRoutes(to router: Router<AppRequestContext>) {
        let renderer = WebRenderer()
        let u = useCases
        let pages = WebPages(
            renderer: renderer, notifications: u.notifications, contacts: u.contacts, vapidPublicKey: vapidPublicKey, now: now)
        let web = router.group(context: WebContext.self).add(
            middleware: WebSessionMiddleware(accounts: u.accounts, profiles: u.profiles, now: now))
        for name in [
            "app.css", "app.js", "sw.js", "manifest.webmanifest", "icon.svg", "icon-maskable.svg",
            "icon-192.png", "icon-512.png", "icon-maskable-192.png", "icon-maskable-512.png", "apple-touch-icon.png",
            // The service worker's offline page: its install caches these, and fails if one is missing.
            "offline.html", "offline.js",
        ] {
            let path = name == "sw.js" || name == "manifest.webmanifest" ? "/\(name)" : "/static/\(name)"
            web.get(RouterPath(path)) { _, _ in renderer.file(name) ?? Response(status: .notFound) }
        }
        // The offline page's words in every language, from the catalogue (cached with the page).
        web.get("/static/offline-words.js") { _, _ in OfflineWords.response() }
        AccountRoutes(pages: pages, accounts: u.accounts, profiles: u.profiles).addRoutes(to: web)
        HomeRoutes(
            pages: pages, checkIns: u.checkIns, contacts: u.contacts, incidents: u.incidents, profiles: u.profiles,
            notifications: u.notifications, live: u.live, locations: u.locations
        ).addRoutes(to: web)
        ContactRoutes(pages: pages, contacts: u.contacts, pings: u.pings, plans: u.plans).addRoutes(to: web)
        IncidentRoutes(
            pages: pages, checkIns: u.checkIns, contacts: u.contacts, incidents: u.incidents, profiles: u.profiles,
            sealedDetails: u.sealedDetails, locations: u.locations
        ).addRoutes(to: web)
        LocationRoutes(pages: pages, profiles: u.profiles, locations: u.locations).addRoutes(to: web)
        NotificationRoutes(pages: pages, notifications: u.notifications).addRoutes(to: web)
        ProfileRoutes(pages: pages, accounts: u.accounts, profiles: u.profiles, exports: u.dataExports).addRoutes(to: web)
        DeviceLinkRoutes(pages: pages, deviceLinks: u.deviceLinks).addRoutes(to: web)
        PlanRoutes(pages: pages, plans: u.plans).addRoutes(to: web)
        SealedDetailsRoutes(pages: pages, profiles: u.profiles, sealedDetails: u.sealedDetails).addRoutes(to: web)
        LadderRoutes(pages: pages, contacts: u.contacts, ladders: u.ladders).addRoutes(to: web)
        DailyCallRoutes(pages: pages, setups: u.dailyCallSetups, profiles: u.profiles, number: lifeSignalNumber)
            .addRoutes(to: web)
        SettingsRoutes(
            pages: pages, channels: u.channels, checkIns: u.checkIns, profiles: u.profiles, pauses: u.pauses,
            locations: u.locations
        )
        .addRoutes(to: web)
        TimelineRoutes(pages: pages, drills: u.drills, timeline: u.timeline).addRoutes(to: web)
    }
}

/// What every page shares: the renderer, the navigation's badges (unread notifications, pings
/// waiting for an answer), the Web Push key and the service's clock.
struct WebPages: Sendable {
    let renderer: WebRenderer
    let notifications: Notifications
    let contacts: Contacts
    let vapidPublicKey: String?
    let now: @Sendable () -> Date

    /// Renders a page for a signed-in person, with the badges of the navigation.
    func page<Page: WebPage>(
        _ page: Page, context: WebContext, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var chrome = PageChrome(context, for: Page.self)
        if let caller = context.caller, caller.user.isOnboarded {
            let unread = try await notifications.notifications(caller, category: nil, unreadOnly: true, before: nil, limit: 1).unreadCount
            let pings = try await contacts.contacts(caller).responders.filter { $0.incomingPing?.isPending == true }.count
            chrome.badges = PageChrome.Badges(unread: unread > 0 ? unread : nil, pings: pings > 0 ? pings : nil)
        }
        chrome.vapidKey = vapidPublicKey
        return renderer.render(page, chrome: chrome, status: status)
    }
}

/// One group of the web app's routes (a struct holding the use cases its pages use), with the
/// helpers every handler shares.
protocol WebPageGroup: Sendable {
    var pages: WebPages { get }
}

extension WebPageGroup {
    func page<Page: WebPage>(_ page: Page, context: WebContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        try await pages.page(page, context: context, status: status)
    }

    /// Runs `body` for a signed-in, onboarded caller; otherwise redirects to sign-in or onboarding.
    func signedIn(
        _ context: WebContext, onboarded: Bool = true, _ body: (Caller) async throws -> Response
    ) async throws -> Response {
        guard let caller = context.caller else { return .redirect("/signin") }
        if onboarded, !caller.user.isOnboarded { return .redirect("/onboarding") }
        return try await body(caller)
    }

    /// Runs an action and redirects; a `ServiceError` goes back to `failure` with its message.
    func action(
        _ context: WebContext, to success: String, failure: String? = nil, onboarded: Bool = true,
        _ body: (Caller) async throws -> String?
    ) async throws -> Response {
        try await signedIn(context, onboarded: onboarded) { caller in
            do {
                let message = try await body(caller)
                if let message { return flashRedirect(success, message, context) }
                return .redirect(success)
            } catch let error as ServiceError where error.code != .unavailable {
                // An outage is not the form's fault: it is thrown on as a 503, so nothing
                // (a queued check-in above all) takes the redirect for success.
                return flashRedirect(failure ?? success, WebController.said(error), context)
            }
        }
    }

    /// Redirects with a one-shot message shown on the next page.
    func flashRedirect(_ path: String, _ message: String, _ context: WebContext) -> Response {
        var response = Response.redirect(path)
        response.headers.append(
            HTTPField(
                name: .setCookie, value: WebCookie.make(WebCookie.flash, FormCoding.escape(message), secure: context.secure, maxAge: 60)))
        return response
    }
}

extension WebController {
    static func duration(_ seconds: Int) -> String {
        let s = abs(seconds)
        let days = s / 86400, hours = (s % 86400) / 3600, minutes = (s % 3600) / 60
        if days > 0 { return say("web.duration.days", ["d": String(days), "h": String(hours)]) }
        if hours > 0 { return say("web.duration.hours", ["h": String(hours), "m": String(minutes)]) }
        if minutes > 0 { return say("web.duration.minutes", ["m": String(minutes), "s": String(s % 60)]) }
        return say("web.duration.seconds", ["s": String(s % 60)])
    }

    /// A time on a page, in the reader's own zone, as people say it ("today at 21:30").
    static func formatDate(_ date: Date?) -> String {
        guard let date else { return say("web.time.never") }
        let reader = ReaderClock.current
        return HumanTime.phrase(date, in: reader.zone, now: reader.now, words: reader.words)
    }

    /// A time about someone else: their clock first, then the reader's when the two differ
    /// ("today at 09:30 their time (03:30 yours)").
    static func formatDate(_ date: Date?, about zone: String?) -> String {
        guard let date else { return say("web.time.never") }
        guard let zone else { return formatDate(date) }
        let reader = ReaderClock.current
        return HumanTime.phrase(date, reader: reader.zone, subject: HumanTime.zone(zone), now: reader.now, words: reader.words)
    }

    static func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The rhythms offered, in seconds: 8 to 72 hours, then 4 to 7 days.
    static let intervalChoices: [Int] = [8, 16, 24, 32, 48, 72].map { $0 * 3600 } + (4...7).map { $0 * 86400 }

    /// An offered rhythm's length in the reader's words: "24 hours", "4 days".
    static func intervalLabel(_ seconds: Int) -> String {
        seconds < 4 * 86400 ? say("duration.hours", count: seconds / 3600) : say("web.rhythm.days", count: seconds / 86400)
    }

    static let reminderChoices: [(ReminderChoice, String)] = [
        (.none, "web.rhythm.reminderNone"), (.thirtyMinutes, "web.rhythm.reminderThirty"),
        (.twoHours, "web.rhythm.reminderTwoHours"), (.both, "web.rhythm.reminderBoth"),
    ]

    /// "30 minutes before", in the reader's words.
    static func reminderLabel(_ choice: ReminderChoice) -> String {
        reminderChoices.first { $0.0 == choice }.map { say($0.1) } ?? ""
    }

    /// "every 24 hours", or "by 09:30 every day (Europe/Paris time)".
    static func rhythmLabel(_ schedule: CheckInSchedule, watchOnly: Bool) -> String {
        watchOnly ? say("web.rhythm.never") : rhythmLabel(schedule)
    }

    static func rhythmLabel(_ schedule: CheckInSchedule) -> String {
        switch schedule {
        case let .interval(seconds) where intervalChoices.contains(seconds):
            seconds < 4 * 86400
                ? say("web.rhythm.everyHours", count: seconds / 3600) : say("web.rhythm.everyDays", count: seconds / 86400)
        case let .interval(seconds):
            say("web.rhythm.everyDuration", ["duration": duration(seconds)])
        case let .daily(daily) where daily.times.count == 1 && daily.first.isEveryDay:
            say("web.rhythm.dailyBy", ["time": daily.first.time, "zone": daily.timeZone])
        case let .daily(daily):
            say(
                "web.rhythm.dailyTimes",
                ["schedule": DailyScheduleWords.text(daily, words: ReaderClock.current.words), "zone": daily.timeZone])
        case let .dailyCall(call):
            say(
                "web.rhythm.callDaily",
                ["time": call.time, "zone": call.timeZone, "number": call.number ?? say("web.rhythm.callOwnPhone")],
                count: call.attempts)
        }
    }

    /// The schedule a rhythm form asks for: `rhythm=daily` with up to four times and their
    /// weekdays (``DailyTimesForm``) and `timeZone` (IANA, filled by the page's script from the
    /// browser; the current one, else UTC, without it), or `rhythm=interval` with `interval`
    /// seconds. Nil when the form says neither.
    static func schedule(from form: [String: String], current: CheckInSchedule) -> CheckInSchedule? {
        let answer = RhythmForm.Answer(form)
        if answer == .daily {
            guard let times = DailyTimesForm.times(from: form) else { return nil }
            var zone = form["timeZone"] ?? ""
            if zone.isEmpty || TimeZone(identifier: zone) == nil {
                zone = current.dailySchedule?.timeZone ?? "UTC"
            }
            return .daily(DailySchedule(times: times, timeZone: zone))
        }
        if answer == .dailyCall {
            let parts = (form["callTime"] ?? "").split(separator: ":").compactMap { Int($0) }
            guard parts.count == 2 else { return nil }
            var zone = form["timeZone"] ?? ""
            if zone.isEmpty || TimeZone(identifier: zone) == nil {
                zone = current.dailySchedule?.timeZone ?? current.dailyCall?.timeZone ?? "UTC"
            }
            let number = (form["number"] ?? "").trimmingCharacters(in: .whitespaces)
            return .dailyCall(
                DailyCall(
                    hour: parts[0], minute: parts[1], timeZone: zone,
                    attempts: Int(form["attempts"] ?? "") ?? DailyCall.defaultAttempts,
                    retryMinutes: Int(form["retryMinutes"] ?? "") ?? DailyCall.defaultRetryMinutes,
                    weekdays: current.dailyCall?.weekdays ?? DailyCall.everyDay, number: number.isEmpty ? nil : number))
        }
        return Int(form["interval"] ?? "").map { .interval(seconds: $0) }
    }

    static func intervalOptions(selected: Int) -> [Choice] {
        intervalChoices.map { Choice(value: "\($0)", label: intervalLabel($0), selected: $0 == selected) }
    }

    static func reminderOptions(selected: ReminderChoice) -> [Choice] {
        reminderChoices.map { Choice(value: $0.0.rawValue, label: say($0.1), selected: $0.0 == selected) }
    }
}

extension WebController {
    /// The phone number typed in a form's `field`, read the way people write numbers in the
    /// country picked beside it (`region`), in E.164; a bad number is the form's error.
    static func typedPhone(_ context: WebContext, field: String = "phone") throws(ServiceError) -> String {
        let region = pickedRegion(context)
        do {
            return try PhoneNumbers.e164(context.form[field] ?? "", region: region)
        } catch {
            // A refusal naming the country names it in the reader's language, as the picker does.
            var refusal = error
            if refusal.arguments["country"] != nil,
                let name = ReaderClock.current.words.locale.localizedString(forRegionCode: region)
            {
                refusal.arguments["country"] = name
            }
            throw ServiceError.invalid(refusal)
        }
    }

    /// The country picked in the form, else the one the page offered.
    static func pickedRegion(_ context: WebContext) -> String {
        context.form["region"].flatMap(PhoneNumbers.knownRegion) ?? context.region
    }

    /// Remembers the country picked in a form for the next phone number field (a year).
    static func rememberRegion(_ response: inout Response, _ context: WebContext) {
        response.headers.append(
            HTTPField(
                name: .setCookie,
                value: WebCookie.make(WebCookie.region, pickedRegion(context), secure: context.secure, maxAge: 365 * 86400)))
    }
}

/// `body`'s answer, or nil when the service refuses it with one of `expected`: a part of a page
/// that may rightly be missing (she has no photo; the alert ended while the page was made).
/// Anything else, an outage above all, is thrown, so the page says the service is unavailable
/// instead of quietly leaving that part out.
func unlessRefused<T>(_ expected: Set<ErrorCode>, _ body: () async throws -> T) async throws -> T? {
    do {
        return try await body()
    } catch let error as ServiceError where expected.contains(error.code) {
        return nil
    }
}
