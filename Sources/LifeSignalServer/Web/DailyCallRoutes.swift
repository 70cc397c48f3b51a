import Foundation
import Hummingbird
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Daily calls for people without a smartphone: "Set up daily calls for Mum" (name, number,
/// zone, time, and where each request stands), and the printable card for the fridge — the
/// number LifeSignal calls from, the keys, and how to call in.
struct DailyCallRoutes: WebPageGroup {
    let pages: WebPages
    let setups: DailyCallSetups
    let profiles: Profiles
    /// The number LifeSignal calls from; nil when no phone provider is configured.
    let number: String?

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/contacts/daily-calls") { _, context in
            try await signedIn(context) { caller in
                let made = try await setups.list(caller)
                return try await page(DailyCallsPage(setups: made, zone: caller.user.timeZone, now: pages.now()), context: context)
            }
        }
        web.post("/contacts/daily-calls") { _, context in
            try await action(context, to: "/contacts/daily-calls") { caller in
                let form = context.form
                let setup = try await setups.setUp(
                    caller, firstName: form["firstName"] ?? "", lastName: form["lastName"] ?? "", phone: form["phone"] ?? "",
                    time: form["time"] ?? "", timeZone: (form["timeZone"] ?? "").isEmpty ? caller.user.timeZone : form["timeZone"]!)
                return say("web.dailyCalls.made", ["name": setup.name])
            }
        }
        web.post("/contacts/daily-calls/:id/cancel") { _, context in
            try await action(context, to: "/contacts/daily-calls") { caller in
                let setup = try await setups.cancel(caller, id: try context.id())
                return setup.status == .cancelled ? say("web.dailyCalls.cancelled", ["name": setup.name]) : nil
            }
        }
        // The card for her own calls, and for someone the caller set them up for.
        web.get("/card") { _, context in
            try await signedIn(context) { caller in
                let user = try await profiles.profile(caller)
                return try await page(
                    CardPage(
                        name: user.fullName.isEmpty ? user.phone : user.fullName, call: user.schedule.dailyCall, number: number,
                        pin: user.hasCallInPin),
                    context: context)
            }
        }
        // Her call-in PIN: four digits, or an empty field to remove it. Never shown again.
        web.post("/card/pin") { _, context in
            try await action(context, to: "/card") { caller in
                let pin = (context.form["pin"] ?? "").trimmingCharacters(in: .whitespaces)
                let removing = context.form["remove"] != nil
                _ = try await profiles.updateProfile(caller, ProfileChanges(callInPin: removing ? "" : pin))
                return say(removing ? "web.card.pin.removed" : "web.card.pin.saved")
            }
        }
        web.get("/contacts/daily-calls/:id/card") { _, context in
            try await signedIn(context) { caller in
                let id: DailyCallSetupID = try context.id()
                guard let setup = try await setups.list(caller).first(where: { $0.id == id }) else {
                    throw ServiceError(.notFound, code: .dailyCallSetupNotFound, Said("error.dailyCallSetupNotFound"))
                }
                let parts = setup.time.split(separator: ":").compactMap { Int($0) }
                let call = DailyCall(hour: parts.first ?? 9, minute: parts.last ?? 0, timeZone: setup.timeZone)
                return try await page(CardPage(name: setup.name, call: call, number: number), context: context)
            }
        }
    }
}

struct DailyCallsPage: WebPage {
    static let template = "daily-calls"
    static let section: NavSection? = .contacts
    static let hasPhoneField = true
    let title = say("web.dailyCalls.title")
    let setups: [Row]
    let hasSetups: Bool
    let zone: String

    struct Row {
        let id: String
        let name: String
        let phone: String
        let when: String
        let state: String
        let isPending: Bool
        let canPrint: Bool
    }

    init(setups: [DailyCallSetup], zone: String, now: Date) {
        self.zone = zone
        hasSetups = !setups.isEmpty
        self.setups = setups.map { setup in
            let state: String =
                switch setup.status {
                case .pending:
                    setup.nextCallAt.map { say("web.dailyCalls.pending", ["when": WebController.formatDate($0)]) }
                        ?? say("web.dailyCalls.pendingNow")
                case .agreed: say("web.dailyCalls.agreed")
                case .declined: say("web.dailyCalls.declined")
                case .unanswered: say("web.dailyCalls.unanswered")
                case .cancelled: say("web.dailyCalls.cancelledState")
                }
            return Row(
                id: setup.id.description, name: setup.name, phone: setup.phone,
                when: say("web.dailyCalls.when", ["time": setup.time, "zone": setup.timeZone]), state: state,
                isPending: setup.status == .pending, canPrint: setup.status == .pending || setup.status == .agreed)
        }
    }
}

struct CardPage: WebPage {
    static let template = "card"
    let title = say("web.card.title")
    let name: String
    /// "Every day at 09:00", or nil when she has no daily call (she can still call in).
    let when: String?
    /// LifeSignal's number, or nil when calls are not configured here.
    let number: String?
    let saveContact: String
    let callIn: String?
    /// Her own card: the PIN form is shown (never the PIN); nil on a card for someone else.
    let pin: PinForm?

    struct PinForm {
        let isSet: Bool
    }

    init(name: String, call: DailyCall?, number: String?, pin: Bool? = nil) {
        self.name = name
        when = call.map { say("web.card.when", ["time": $0.time]) }
        self.number = number
        saveContact = say("web.card.saveContact")
        callIn = number.map { say(pin == true ? "web.card.callIn.pin" : "web.card.callIn", ["number": $0]) }
        self.pin = pin.map(PinForm.init(isSet:))
    }
}
