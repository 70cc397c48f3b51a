import Foundation
import LifeSignalLanguage
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalRules
import LifeSignalModels

/// The web app's pages for rhythm, reminders, pause and channels.
struct SettingsRoutes: WebPageGroup {
    let pages: WebPages
    let channels: Channels
    let checkIns: CheckIns
    let profiles: Profiles
    let pauses: Pauses
    let locations: Locations

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/settings") { _, context in
            try await signedIn(context) { caller in
                let user = try await profiles.profile(caller)
                let status = try await checkIns.status(caller)
                let pauses = try await self.pauses.list(caller).filter { $0.from > pages.now() }
                let stopped = try await channels.stoppedNumbers(caller)
                let codes = try await channels.codeDeliveries(caller)
                let channels = try await channels.channels(caller).map { channel in
                    SettingsPage.Channel(
                        id: channel.id.description, kind: WebController.channelLabel(channel.kind),
                        address: channel.kind == .webPush
                            ? say("web.settings.subscription", ["id": String(channel.id.description.prefix(8))]) : channel.address,
                        categories: WebController.categoryLabels.filter { channel.categories.contains($0.0) }.map { say($0.1) }
                            .joined(separator: ", "),
                        unproved: !channel.isVerified,
                        codeState: channel.isVerified ? nil : WebController.codeState(codes[channel.id]),
                        codeFailed: !channel.isVerified && codes[channel.id]?.status == .failed,
                        stopped: channel.kind == .sms && stopped.contains(channel.address))
                }
                var settings = SettingsPage(
                    graces: WebController.graceChoices.map {
                        Choice(value: "\($0)", label: say("duration.minutes", count: $0), selected: $0 == user.graceMinutes)
                    },
                    languages: WebController.languageChoices(selected: ReaderClock.current.words.rendered),
                    timeZone: user.timeZone, zones: TimeZone.knownTimeZoneIdentifiers.sorted(),
                    quietOn: user.quietHours != nil, quietFrom: user.quietHours?.from ?? "22:00",
                    quietTo: user.quietHours?.to ?? "07:00",
                    paused: status.state == .paused,
                    pausedLine: say("web.settings.pausedUntil", ["when": WebController.formatDate(status.pausedUntil)]),
                    today: ISO8601DateFormatter.day.string(from: pages.now()),
                    lastDay: ISO8601DateFormatter.day.string(from: pages.now().addingTimeInterval(Pause.longest - 86400)),
                    incidentOpen: status.openIncident?.kind == .missedCheckIn,
                    planned: pauses.map {
                        SettingsPage.PlannedPause(
                            id: $0.id.description,
                            line: say(
                                "web.settings.daysOffLine",
                                ["from": WebController.formatDate($0.from), "until": WebController.formatDate($0.until)]))
                    },
                    noPlanned: pauses.isEmpty,
                    tomorrow: ISO8601DateFormatter.day.string(from: pages.now().addingTimeInterval(86400)),
                    lastPlanDay: ISO8601DateFormatter.day.string(from: pages.now().addingTimeInterval(Pause.furthestStart)),
                    phone: user.phone, phoneStopped: stopped.contains(user.phone),
                    textsStopped: say("web.settings.textsStopped", ["phone": user.phone, "stop": "STOP", "start": "START"]),
                    channels: channels, noChannels: channels.isEmpty,
                    categories: WebController.categoryLabels.filter { $0.0 != .alerts }.map {
                        Choice(value: $0.0.rawValue, label: say($0.1))
                    },
                    pushAvailable: pages.vapidPublicKey != nil
                )
                settings.location = LocationSettingsView(user, kept: try await locations.own(caller))
                return try await page(settings, context: context)
            }
        }
        web.post("/settings/language") { _, context in
            try await action(context, to: "/settings") { caller in
                let tag = (context.form["language"] ?? "").trimmingCharacters(in: .whitespaces)
                let user = try await profiles.updateProfile(caller, ProfileChanges(language: tag))
                // Said in the new language: the page after the redirect is in it too.
                let language = user.language.flatMap { Language($0) } ?? .english
                return Words(language)("web.settings.languageSaved", ["language": language.name])
            }
        }
        web.post("/settings/time-zone") { _, context in
            try await action(context, to: "/settings") { caller in
                let zone = (context.form["timeZone"] ?? "").trimmingCharacters(in: .whitespaces)
                let user = try await profiles.updateProfile(caller, ProfileChanges(timeZone: zone))
                return say("web.settings.zoneSaved", ["zone": user.timeZone])
            }
        }
        web.post("/settings/quiet-hours") { _, context in
            try await action(context, to: "/settings") { caller in
                guard context.form["quiet"] != nil else {
                    _ = try await profiles.updateProfile(caller, ProfileChanges(clearsQuietHours: true))
                    return say("web.settings.quietOff")
                }
                guard let from = QuietHours.minute(context.form["from"] ?? ""), let to = QuietHours.minute(context.form["to"] ?? "")
                else { throw ServiceError.invalid(field: "quietHours", Said("validation.quietHours")) }
                let user = try await profiles.updateProfile(caller, ProfileChanges(quietHours: QuietHours(fromMinute: from, toMinute: to)))
                return say("web.settings.quietSaved", ["from": user.quietHours?.from ?? "", "to": user.quietHours?.to ?? ""])
            }
        }
        web.post("/settings/grace") { _, context in
            try await action(context, to: "/settings") { caller in
                guard let minutes = Int(context.form["grace"] ?? "") else {
                    throw ServiceError.invalid(field: "graceMinutes", say("web.settings.chooseGrace"))
                }
                _ = try await profiles.updateProfile(caller, ProfileChanges(graceMinutes: minutes))
                return say("web.settings.graceSaved", count: minutes)
            }
        }
        web.post("/settings/pause") { _, context in
            try await action(context, to: "/settings") { caller in
                if context.form["resume"] == "yes" {
                    _ = try await profiles.setPause(caller, until: nil)
                    return say("web.settings.pauseEnded")
                }
                // The pause ends at the start of the chosen day, in the browser's time zone
                // (its offset comes with the form when scripts run; UTC otherwise).
                guard let day = ISO8601DateFormatter.day.date(from: context.form["until"] ?? "") else {
                    throw ServiceError.invalid(field: "until", say("web.settings.chooseDay"))
                }
                let until = Self.dayStart(day, context)
                let choice = OpenIncidentChoice(rawValue: context.form["openIncident"] ?? "")
                let status = try await profiles.setPause(caller, until: until, openIncident: choice)
                return say("web.settings.pausedFlash", ["when": WebController.formatDate(status.pausedUntil ?? until)])
            }
        }
        // Days off planned ahead: from the start of the first day away until the start of the
        // day she is back, in the browser's time zone.
        web.post("/settings/pauses") { _, context in
            try await action(context, to: "/settings#pause-card") { caller in
                guard let first = ISO8601DateFormatter.day.date(from: context.form["from"] ?? "") else {
                    throw ServiceError.invalid(field: "from", say("web.settings.chooseDay"))
                }
                guard let back = ISO8601DateFormatter.day.date(from: context.form["until"] ?? "") else {
                    throw ServiceError.invalid(field: "until", say("web.settings.chooseDay"))
                }
                let pause = try await pauses.add(
                    caller, from: Self.dayStart(first, context), until: Self.dayStart(back, context), openIncident: nil)
                return say(
                    "web.settings.daysOffSaved",
                    ["from": WebController.formatDate(pause.from), "until": WebController.formatDate(pause.until)])
            }
        }
        web.post("/settings/pauses/:id/remove") { _, context in
            try await action(context, to: "/settings#pause-card") { caller in
                guard let id = context.parameters.get("id").flatMap(PauseID.init(string:)) else {
                    throw ServiceError(.notFound, code: .pauseNotFound, Said("error.pauseNotFound"))
                }
                _ = try await pauses.remove(caller, pause: id)
                return say("web.settings.daysOffCalledOff")
            }
        }
        web.post("/settings/channels") { request, context in
            let wantsJSON = request.headers[.accept]?.contains("application/json") == true
            guard let caller = context.caller else { return wantsJSON ? Response(status: .unauthorized) : .redirect("/signin") }
            let kind = ChannelKind(rawValue: context.form["kind"] ?? "")
            var categories: Set<Notification.Category> = [.alerts]
            for category in Notification.Category.allCases where context.form["category_\(category.rawValue)"] == "on" {
                categories.insert(category)
            }
            if kind == .webPush { categories = Set(Notification.Category.allCases) }
            do {
                guard let kind, [.email, .webhook, .ntfy, .webPush, .sms, .voice].contains(kind) else {
                    throw ServiceError.invalid(field: "kind", say("web.settings.chooseKind"))
                }
                // A number for a text or call is typed as people write it in its country.
                let address =
                    kind == .sms || kind == .voice
                    ? try WebController.typedPhone(context, field: "address") : context.form["address"] ?? ""
                let registration = ChannelRegistration(kind: kind, address: address, categories: categories)
                try TextableNumbers.check(registration)
                let channel = try await channels.addChannel(caller, registration)
                if wantsJSON { return Response(status: .created) }
                if let secret = channel.signingSecret {
                    // Shown once, in this page's body: never in a redirect's flash cookie.
                    return try await page(WebhookSecretPage(address: channel.address, secret: secret), context: context)
                }
                if !channel.isVerified {
                    // Not "sent": the page below says whether the provider took it.
                    return flashRedirect(
                        "/settings", say("web.settings.sendingCode", ["address": channel.address]), context)
                }
                return flashRedirect("/settings", say("web.settings.channelAdded", ["channel": WebController.channelLabel(kind)]), context)
            } catch let error as ServiceError {
                if wantsJSON { return Response(status: ErrorMiddleware<WebContext>.status(of: error.kind)) }
                return flashRedirect("/settings", WebController.said(error), context)
            }
        }
        web.post("/settings/channels/{id}/verify") { _, context in
            try await action(context, to: "/settings") { caller in
                guard let id = context.parameters.get("id").flatMap(ChannelID.init(string:)) else { return nil }
                let channel = try await channels.verifyChannel(caller, id: id, code: context.form["code"] ?? "")
                return say("web.settings.channelConfirmed", ["channel": WebController.channelLabel(channel.kind)])
            }
        }
        web.post("/settings/channels/{id}/remove") { _, context in
            try await action(context, to: "/settings") { caller in
                guard let id = context.parameters.get("id").flatMap(ChannelID.init(string:)) else { return nil }
                try await channels.removeChannel(caller, id: id)
                return say("web.settings.channelRemoved")
            }
        }
    }
}

extension WebController {
    /// What became of a channel's proof code, in words: "sent" only once the provider took it.
    static func codeState(_ delivery: DeliveryProof?) -> String {
        guard let delivery else { return say("web.settings.codeSending") }
        switch delivery.status {
        case .queued: return say("web.settings.codeSending")
        case .sent: return say("web.settings.codeSent", ["time": clockTime(delivery.updatedAt)])
        case .delivered: return say("web.settings.codeDelivered", ["time": clockTime(delivery.updatedAt)])
        case .failed:
            let reason = delivery.reason.map { DeliveryReason.text($0, in: ReaderClock.current.words) }
            return reason.map { say("web.settings.codeFailedWhy", ["reason": $0]) } ?? say("web.settings.codeFailed")
        }
    }

    static let graceChoices = [0, 5, 10, 15, 20, 30, 45, 60]

    /// A channel kind as Settings names it ("E-mail", "Text message"), in the reader's words.
    static func channelLabel(_ kind: ChannelKind) -> String {
        say("web.channelLabel." + String(describing: kind))
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-21`, in UTC.
    static var day: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }
}

extension SettingsRoutes {
    /// The start of a day picked in a date field, in the browser's time zone (its offset comes
    /// with the form when scripts run; UTC otherwise).
    static func dayStart(_ day: Date, _ context: WebContext) -> Date {
        let offsetMinutes = Int(context.form["tzOffset"] ?? "").map { max(-840, min(840, $0)) } ?? 0
        return day.addingTimeInterval(Double(offsetMinutes) * 60)
    }
}
