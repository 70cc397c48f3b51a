import LifeSignalCore
import LifeSignalRules
import LifeSignalModels

/// One incident: what it is, what a responder can do, and who was told on which channel.
struct IncidentPage: WebPage {
    static let template = "incident"
    let title: String
    let id: String
    let userID: String
    let name: String
    let firstName: String
    let note: String?
    /// "SOS alert: Ada Lovelace", "Missed check-in: Ada Lovelace".
    let heading: String
    let isSOS: Bool
    /// "Ada missed the check-in due today at 09:30 their time (03:30 yours) and has not
    /// answered" (the deadline, not the moment the alert went out), "your emergency alert,
    /// raised today at 09:41" for her own SOS.
    let state: String
    let open: Bool
    /// Once it has ended: "Ada is safe — checked in today at 09:40 their time (03:40 yours)."
    let allClear: String?
    /// "Bob is on it.", while it is open (nobody is "on it" after the all-clear).
    let acknowledgedBy: String?
    let callLabel: String
    let textLabel: String
    let callHint: String
    let onItHint: String
    let checkInForLabel: String
    let checkInForHint: String
    let acknowledgedByMe: Bool
    let isMine: Bool
    let isResponder: Bool
    /// The number a responder can call or text, while the incident is open.
    let phone: String?
    /// What actually happened to each alert, in words, while the incident is open.
    let summary: ToldSummary?
    let recipients: [RecipientView]
    let emergency: EmergencyCall?
    let checkInID: String
    /// "Ada is told who opened them", under the button that opens her sealed details.
    let sealedHint: String
    /// The sealed details a responder has just opened (only on that answer).
    let sealed: SealedShown?
    /// "Step 2 of 3. The next step is told today at 10:10 unless someone says “I'm on it” first."
    let ladder: String?
    /// "Nobody has confirmed they are coming…", once the ladder is exhausted and nobody is on it.
    let exhausted: String?
    /// Her device links' calls that did not end the alert: "Front door button, today at 09:14,
    /// not confirmed by Ada".
    let activity: [String]
    let hasActivity: Bool
    /// The plan she is late back from: headline, times, what she asked responders to do.
    let plan: PlanShown?
    /// Her last location, first on a responder's page while the alert is open (``LocationShown``).
    var location: LocationShown?
    /// She shares her location but none has come: said so plainly.
    var locationNone: String?
    /// "Ada is told you looked, once."
    var seenHint: String?

    struct ToldSummary {
        let lines: [ResponderLine]
    }

    init(
        report: IncidentReport, name: String, firstName: String, isMine: Bool, me: UserID, since: String, ended: String?,
        phone: String?, summary: ToldSummary?, emergency: EmergencyCall, checkInID: String, sealed: String? = nil,
        planSealed: String? = nil, plan: PlanShown? = nil, activity: [String] = []
    ) {
        self.plan = plan
        self.activity = activity
        hasActivity = !activity.isEmpty
        let incident = report.incident
        title = say("web.incident.title", ["name": name])
        id = incident.id.description
        userID = incident.userID.description
        self.name = name
        self.firstName = firstName
        note = report.user.emergencyNote?.nonEmpty
        isSOS = incident.kind == .manualAlert
        let isPlan = incident.kind == .planOverdue
        heading = say(
            "web.incident.heading",
            ["kind": say(isSOS ? "web.incident.kindSOS" : isPlan ? "web.incident.kindPlan" : "web.incident.kindMissed"), "name": name])
        let stateKey = "web.incident.state." + (isMine ? "mine" : "theirs") + (isSOS ? "SOS" : isPlan ? "Plan" : "Missed")
        state = say(stateKey, ["name": firstName, "when": since])
        open = incident.resolvedAt == nil
        let byMe = incident.resolvedBy == me
        let by = incident.resolvedBy.flatMap { who in report.recipients.first { $0.userID == who }?.name } ?? say("web.incident.aResponder")
        allClear = ended.map { when in
            let whose = isMine ? "mine" : "theirs"
            let key =
                switch incident.resolution {
                case .checkedIn?: "web.incident.end.checkedIn." + whose
                case .cleared?: "web.incident.end.cleared." + whose
                case .checkedInByResponder?: byMe && !isMine ? "web.incident.end.behalfYou.theirs" : "web.incident.end.behalf." + whose
                case .resolvedByResponder?: byMe && !isMine ? "web.incident.end.resolvedYou.theirs" : "web.incident.end.resolved." + whose
                case nil: "web.incident.end.other." + whose
                }
            return say(key, ["name": firstName, "by": by, "when": when])
        }
        acknowledgedBy = open ? report.acknowledgedByName?.nonEmpty.map { say("web.help.onIt", ["name": $0]) } : nil
        callLabel = say("web.person.call", ["name": firstName])
        textLabel = say("web.person.text", ["name": firstName])
        callHint = say("web.incident.callHint", ["name": firstName, "phone": phone ?? ""])
        onItHint = say("web.incident.onItHint", ["name": firstName])
        checkInForLabel = say("web.incident.checkInFor", ["name": firstName])
        checkInForHint = say("web.incident.checkInForHint", ["name": firstName])
        acknowledgedByMe = incident.acknowledgedBy == me
        self.isMine = isMine
        isResponder = !isMine
        self.phone = phone
        self.summary = summary
        recipients = report.recipients.map { RecipientView(name: $0.name, deliveries: $0.deliveries) }
        self.emergency = open ? emergency : nil
        self.checkInID = checkInID
        sealedHint = say("web.incident.sealed.hint", ["name": firstName])
        self.sealed = sealed.map {
            SealedShown(
                text: $0.nonEmpty, none: say("web.incident.sealed.none", ["name": firstName]), plan: planSealed?.nonEmpty)
        }
        let ladder = open && incident.acknowledgedBy == nil ? incident.ladder : nil
        self.ladder = ladder.flatMap { ladder in
            guard ladder.steps.count > 1 else { return nil }
            let where_ = say("web.incident.ladder.step", ["step": String(ladder.told), "steps": String(ladder.steps.count)])
            guard let next = ladder.nextStepAt else { return where_ }
            return where_ + " " + say("web.incident.ladder.next", ["when": WebController.formatDate(next)])
        }
        exhausted =
            ladder?.exhaustedAt == nil
            ? nil
            : say(
                isMine ? "web.incident.exhausted.mine" : "web.incident.exhausted.theirs", ["name": firstName, "number": emergency.number])
    }

    /// Sealed details as shown: her words as she wrote them, or that she wrote none.
    struct SealedShown {
        let text: String?
        let none: String
        /// The plan's details, for an alert about a plan.
        let plan: String?
    }

    /// "Late back from: Hiking the Rax trail, due today at 18:00", and her instruction with
    /// its time and a Call button for the number in it.
    struct PlanShown {
        let title: String
        let due: String
        let instruction: String?
        let instructionFrom: String?
        /// The number in her instruction ("Call mountain rescue 140"), for a `tel:` link.
        let number: String?
        let callNumber: String?

        init(_ plan: PlanBrief, zone: String?) {
            title = plan.title
            due = say("web.incident.plan.due", ["when": WebController.formatDate(plan.dueAt, about: zone)])
            instruction = plan.instruction
            instructionFrom = plan.instruction.map { _ in
                say("web.incident.plan.from", ["when": WebController.formatDate(plan.instructionAt ?? plan.dueAt, about: zone)])
            }
            number = plan.instruction.flatMap(Self.number)
            callNumber = number.map { say("web.incident.plan.call", ["number": $0]) }
        }

        /// The last run of digits (with a leading +) of at least three digits in `text`.
        static func number(in text: String) -> String? {
            let runs = text.split { !($0.isASCII && ($0.isNumber || $0 == "+")) }.map(String.init)
            return runs.last { $0.filter(\.isNumber).count >= 3 }
        }
    }
}

/// The emergency services to call during an alert: the number where the person's phone is
/// from and, for a responder whose own number is from elsewhere, his own as well.
struct EmergencyCall {
    let number: String
    let lead: String
    /// "Call 112".
    let call: String
    let mine: String?

    init(theirs: String, mine: String, firstName: String, isMine: Bool) {
        number = isMine ? mine : theirs
        lead = isMine ? say("web.incident.leadMine") : say("web.incident.leadTheirs", ["name": firstName])
        call = say("web.home.callEmergency", ["number": number])
        self.mine = isMine || mine == theirs ? nil : mine
    }
}

/// Everything sent to one person (for an incident or a drill), delivery by delivery.
struct RecipientView {
    let name: String
    let deliveries: [DeliveryView]
    let none: Bool
    /// A line beside the name ("You pressed a key: you are checked in").
    let note: String?

    init(name: String, deliveries: [DeliveryProof], note: String? = nil) {
        self.name = name
        self.deliveries = deliveries.map(DeliveryView.init)
        none = deliveries.isEmpty
        self.note = note
    }
}

struct DeliveryView {
    /// What was sent ("Ada missed a check-in (reminder 2)"), where known.
    let what: String?
    let channel: String
    let status: String
    let when: String
    let reason: String?
    let failed: Bool

    init(_ delivery: DeliveryProof) {
        what = delivery.what?.nonEmpty
        channel = say("web.channelLabel." + String(describing: delivery.channel))
        status = say("web.delivery.\(delivery.status.rawValue)")
        when = WebController.formatDate(delivery.updatedAt)
        // The stored reason is English; the reader reads it in their language.
        reason = delivery.reason?.nonEmpty.map { DeliveryReason.text($0, in: ReaderClock.current.words) }
        failed = delivery.status == .failed
    }
}
