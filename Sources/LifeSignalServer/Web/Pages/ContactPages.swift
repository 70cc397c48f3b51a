import LifeSignalCore
import LifeSignalModels

/// A contact as the contact pages, the lists (`{{> person}}`) and the pings page show them.
struct ContactView {
    let id: String
    let name: String
    let initials: String
    let hasAvatar: Bool
    let phone: String
    let note: String?
    let added: String
    let isResponder: Bool
    let isDependent: Bool
    let status: StatusView?
    /// A ping of mine waiting for their answer.
    let outgoingPing: PingView?
    /// A ping of theirs waiting for my answer.
    let incomingPing: PingView?
    /// Their words, made here: templates read stored values only.
    let pictureAlt: String
    let callLine: String
    let addedLine: String
    let removeLine: String
    let sosLine: String
    /// On the pings page: "**Ada** asked today at 09:30", "I'm OK — answer Ada", and what "I need help" does.
    let pingsAsked: Emphasis?
    let answerLine: String
    let helpHint: String
    /// For a dependent with a ladder: "You are told first when Ada misses a check-in", or
    /// "You are on step 2 of 3 of Ada's ladder: told 15 minutes after an alert starts, if nobody before you (Cleo) has said “I'm on it”."
    let ladderPlace: String?

    init(_ contact: Contact) {
        id = contact.userID.description
        name = contact.fullName
        initials = String(contact.firstName.prefix(1) + contact.lastName.prefix(1)).uppercased()
        hasAvatar = contact.hasAvatar
        phone = contact.phone
        note = contact.emergencyNote.nonEmpty
        added = WebController.formatDate(contact.addedAt)
        isResponder = contact.roles.isResponder
        isDependent = contact.roles.isDependent
        status = contact.status.map { StatusView($0, about: true) }
        outgoingPing = contact.outgoingPing.flatMap(PingView.init)
        incomingPing = contact.incomingPing.flatMap(PingView.init)
        pictureAlt = say("web.contact.pictureAlt", ["name": name])
        callLine = say("web.person.call", ["name": contact.phone])
        addedLine = say("web.contact.added", ["when": added])
        removeLine = say("web.contact.yesRemove", ["name": name])
        sosLine = say("web.person.sosOpen", ["name": name])
        let fullName = contact.fullName
        pingsAsked = incomingPing.map { Emphasis("web.pings.asked", "name", fullName, ["when": $0.sent]) }
        answerLine = say("web.pings.answerOne", ["name": name])
        helpHint = say("web.pings.helpHint", ["name": name])
        let first = contact.firstName
        ladderPlace = contact.ladderPlace.map { place in
            place.step == 1
                ? say("web.contact.ladderFirst", ["name": first, "steps": String(place.steps)])
                : say(
                    "web.contact.ladderLater",
                    [
                        "step": String(place.step), "steps": String(place.steps), "minutes": String(place.afterMinutes),
                        "names": ReaderClock.current.words.list(place.before), "name": first,
                    ], count: place.afterMinutes)
        }
    }
}

struct PingView {
    let pingID: String
    let sent: String
    /// "You asked if they're OK today at 09:30." (the lists) and "…; waiting for an answer." (the contact).
    let askedLine: String
    let askedWaiting: String

    /// Nil once the ping is answered or cleared.
    init?(_ ping: Ping) {
        guard ping.isPending else { return nil }
        pingID = ping.id.description
        sent = WebController.formatDate(ping.sentAt)
        askedLine = say("web.person.askedYou", ["when": sent])
        askedWaiting = say("web.contact.askedWaiting", ["when": sent])
    }
}

/// A request as the contacts page shows it, in words that say who would watch whom.
struct RequestView {
    let id: String
    let incomingText: String
    let outgoingText: String
    let declinedText: String
    let sent: String
    /// The roles the page shows, sent back with Accept: a request that changed is refused.
    let asksResponder: Bool
    let asksDependent: Bool

    init(_ request: ContactRequest) {
        id = request.id.description
        asksResponder = request.roles.contains(.responder)
        asksDependent = request.roles.contains(.dependent)
        incomingText = ConsentWording.ask(from: request.fromName, roles: request.roles, words: ReaderClock.current.words).body
        outgoingText = WebController.outgoingRequestText(request)
        declinedText = WebController.declinedRequestText(request)
        sent = say("web.contacts.sent", ["when": WebController.formatDate(request.createdAt)])
    }
}

struct ContactsPage: WebPage {
    static let template = "contacts"
    static let section: NavSection? = .contacts
    let title = say("web.nav.contacts")
    let sorts: [Choice]
    let dependents: [ContactView]
    let responders: [ContactView]
    let noDependents: Bool
    let noResponders: Bool
    let incoming: [RequestView]
    let outgoing: [RequestView]
    let hasIncoming: Bool
    let hasOutgoing: Bool
    /// My requests that were declined lately: a "no" does not vanish.
    let declined: [RequestView]
    let hasDeclined: Bool
}

/// My contact code, link and QR code, and a field for someone else's.
struct AddContactPage: WebPage {
    static let template = "add-contact"
    static let section: NavSection? = .contacts
    let title = say("web.contacts.add")
    let code: String
    /// The code in groups of four, so it can be read aloud or typed from paper.
    let groupedCode: String
    let webLink: String
    let appLink: String
    /// What was typed as the other person's code, kept when it was refused.
    let typed: String
    /// Why the typed code was refused, shown as an error beside it.
    let error: String?

    init(_ code: ContactCode, webLink: String, typed: String = "", error: String? = nil) {
        self.typed = typed
        self.error = error
        self.code = code.code
        groupedCode = stride(from: 0, to: code.code.count, by: 4).map { start in
            String(code.code.dropFirst(start).prefix(4))
        }.joined(separator: " ")
        self.webLink = webLink
        appLink = code.link
    }
}

/// Who a contact code belongs to, and what to ask of them.
struct ContactPreviewPage: WebPage {
    static let template = "contact-preview"
    static let section: NavSection? = .contacts
    let title: String
    let code: String
    let name: String
    let first: String
    let heading: String
    let willBeAsked: String
    let whatAsk: String
    let watchMe: String
    let letMeWatch: String

    init(code: String, name: String, first: String) {
        title = say("web.preview.title", ["name": first])
        self.code = code
        self.name = name
        self.first = first
        heading = say("web.preview.heading", ["name": name])
        willBeAsked = say("web.preview.willBeAsked", ["name": first])
        whatAsk = say("web.preview.whatAsk", ["name": first])
        watchMe = say("web.preview.watchMe", ["name": first])
        letMeWatch = say("web.preview.letMeWatch", ["name": first])
    }
}

struct ContactPage: WebPage {
    static let template = "contact"
    static let section: NavSection? = .contacts
    let title: String
    let contact: ContactView
    /// Her running plans she told him about: "Hiking the Rax trail — back by today at 18:00".
    let plans: [PlanLine]
    let hasPlans: Bool

    init(title: String, contact: ContactView, plans: [PlanLine] = []) {
        self.title = title
        self.contact = contact
        self.plans = plans
        hasPlans = !plans.isEmpty
    }

    struct PlanLine {
        let title: String
        let due: String
        let late: Bool

        init(_ plan: PlanHeadline, zone: String?) {
            title = plan.title
            due = say("web.incident.plan.due", ["when": WebController.formatDate(plan.dueAt, about: zone)])
            late = plan.isLate
        }
    }
}

/// The confirmation of a role change: it changes who is told about whom.
struct ConfirmRolesPage: WebPage {
    static let template = "confirm-roles"
    static let section: NavSection? = .contacts
    let title = say("web.confirmRoles.title")
    let id: String
    /// "Ada will be: **your responder and your dependent**."
    let willBe: Emphasis
    let responder: Bool
    let dependent: Bool
    let losesResponder: Bool
    let losesDependent: Bool

    init(id: String, name: String, new: ContactRoles, old: ContactRoles) {
        self.id = id
        let summary = LifeSignalFormat.names(
            [new.isResponder ? say("web.confirmRoles.yourResponder") : nil, new.isDependent ? say("web.confirmRoles.yourDependent") : nil]
                .compactMap { $0 })
        willBe = Emphasis("web.confirmRoles.willBe", "summary", summary, ["name": name])
        responder = new.isResponder
        dependent = new.isDependent
        losesResponder = old.isResponder && !new.isResponder
        losesDependent = old.isDependent && !new.isDependent
    }
}

/// The pings waiting for my answer.
struct PingsPage: WebPage {
    static let template = "pings"
    let title = say("web.pings.title")
    let pings: [ContactView]
    let none: Bool
    let checkInID: String
}
