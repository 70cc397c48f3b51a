import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// "Check on me by 18:00": her plans, a form to start one, and more time, "I'm back" and
/// calling off, each one press.
struct PlanRoutes: WebPageGroup {
    let pages: WebPages
    let plans: Plans

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/plans") { _, context in
            try await signedIn(context) { caller in
                try await page(PlansPage(plans: try await plans.list(caller), zone: caller.user.timeZone), context: context)
            }
        }
        web.post("/plans") { _, context in
            try await action(context, to: "/plans") { caller in
                let form = context.form
                let zone = HumanTime.zone(caller.user.timeZone)
                let now = ReaderClock.current.now
                guard let due = PlanRule.time(form["dueAt"] ?? "", after: now, zone: zone) else {
                    throw ServiceError.invalid(field: "dueAt", Said("validation.plan.duePast"))
                }
                let instruction = form["instruction"]?.nonEmpty
                let plan = try await plans.start(
                    caller,
                    PlanRequest(
                        title: form["title"] ?? "", dueAt: due, details: form["details"]?.nonEmpty, instruction: instruction,
                        instructionAt: instruction == nil
                            ? nil
                            : (form["instructionAt"]?.nonEmpty).flatMap {
                                PlanRule.time($0, after: now, zone: zone)
                            },
                        tellResponders: form["quiet"] != "on", checkInEveryHours: Int(form["checkInEvery"] ?? "")))
                return say("web.plans.started", ["title": plan.title, "when": WebController.formatDate(plan.dueAt)])
            }
        }
        web.post("/plans/:id/extend") { _, context in
            try await action(context, to: "/plans") { caller in
                let minutes = Int(context.form["minutes"] ?? "") ?? 60
                let plan = try await plans.extend(caller, plan: try context.id(), minutes: minutes)
                return say("web.plans.extended", ["title": plan.title, "when": WebController.formatDate(plan.dueAt)])
            }
        }
        web.post("/plans/:id/back") { _, context in
            try await action(context, to: "/plans") { caller in
                let plan = try await plans.done(caller, plan: try context.id(), source: .web)
                return say("web.plans.back", ["title": plan.title])
            }
        }
        web.post("/plans/:id/cancel") { _, context in
            try await action(context, to: "/plans") { caller in
                let plan = try await plans.cancel(caller, plan: try context.id())
                return say("web.plans.cancelled", ["title": plan.title])
            }
        }
    }
}

/// Her plans (running ones with their buttons, then ended ones) and the form for a new one.
struct PlansPage: WebPage {
    static let template = "plans"
    let title = say("web.plans.title")
    let running: [Row]
    let ended: [Row]
    let hasRunning: Bool
    let hasEnded: Bool
    let full: Bool
    /// Tomorrow-proof defaults for the form: the next full hour plus three, on her clock.
    let defaultDue: String
    let extensions: [Choice]
    /// How often a long plan asks her to check in: only by the due time (the default), or every 12–72 hours.
    let checkInChoices: [Choice]

    struct Row {
        let id: String
        let title: String
        let due: String
        let state: String
        let late: Bool
        let details: String?
        let instruction: String?
        /// A long plan's next check-in: "Check in by Tue 3 Dec, 09:00 (every 24 hours)".
        let nextCheckIn: String?
    }

    init(plans: [Plan], zone: String) {
        let rows = plans.map { plan in
            Row(
                id: plan.id.description, title: plan.title,
                due: say("web.incident.plan.due", ["when": WebController.formatDate(plan.dueAt)]),
                state: say("cli.plan.state.\(plan.state.rawValue)"), late: plan.state == .overdue, details: plan.details?.nonEmpty,
                instruction: plan.instruction,
                nextCheckIn: plan.isRunning
                    ? plan.checkInBy.map {
                        say("web.plans.nextCheckIn", ["when": WebController.formatDate($0), "hours": String(plan.checkInEveryHours ?? 0)])
                    } : nil)
        }
        running = zip(plans, rows).filter { $0.0.isRunning }.map(\.1)
        ended = zip(plans, rows).filter { !$0.0.isRunning }.map(\.1)
        hasRunning = !running.isEmpty
        hasEnded = !ended.isEmpty
        full = running.count >= Plan.activeLimit
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = HumanTime.zone(zone)
        let soon = calendar.date(byAdding: .hour, value: 3, to: ReaderClock.current.now) ?? ReaderClock.current.now
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: soon)
        defaultDue = String(format: "%04d-%02d-%02dT%02d:00", parts.year ?? 2026, parts.month ?? 1, parts.day ?? 1, parts.hour ?? 0)
        checkInChoices =
            [Choice(value: "", label: say("web.plans.checkInNever"), selected: true)]
            + [12, 24, 48, 72].map { Choice(value: String($0), label: say("web.plans.checkInEveryHours", ["hours": String($0)])) }
        extensions = PlanRule.extensionPresets.map {
            Choice(
                value: String($0), label: say("web.plans.more", ["duration": ReaderClock.current.words.duration(seconds: $0 * 60)]),
                selected: false)
        }
    }
}
