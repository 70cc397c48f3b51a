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
    /// "SOS alert" or "Missed check-in".
    let kind: String
    let isSOS: Bool
    /// "due today at 09:30 their time (03:30 yours)" for a missed check-in (the deadline, not
    /// the moment the alert went out), "raised today at 09:41…" for an SOS.
    let since: String
    let open: Bool
    /// Once it has ended: "Ada is safe — checked in today at 09:40 their time (03:40 yours)."
    let allClear: String?
    /// Who is on it, while it is open (nobody is "on it" after the all-clear).
    let acknowledgedBy: String?
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

    struct ToldSummary {
        let lines: [ResponderLine]
    }

    init(
        report: IncidentReport, name: String, firstName: String, isMine: Bool, me: UserID, since: String, ended: String?,
        phone: String?, summary: ToldSummary?, emergency: EmergencyCall, checkInID: String
    ) {
        let incident = report.incident
        title = "\(name) — incident"
        id = incident.id.description
        userID = incident.userID.description
        self.name = name
        self.firstName = firstName
        note = report.user.emergencyNote?.nonEmpty
        isSOS = incident.kind == .manualAlert
        kind = isSOS ? "SOS alert" : "Missed check-in"
        self.since = since
        open = incident.resolvedAt == nil
        let by: String? = incident.resolvedBy.map { who in
            who == me ? "you" : report.recipients.first { $0.userID == who }?.name ?? "a responder"
        }
        allClear = ended.map { when in
            let safe = isMine ? "All clear" : "\(firstName) is safe"
            return switch incident.resolution {
            case .checkedIn?: "\(safe) — \(isMine ? "you" : "they") checked in \(when)."
            case .cleared?: "\(safe) — \(isMine ? "you" : "they") cleared the alert \(when)."
            case .checkedInByResponder?: "\(safe) — \(by ?? "a responder") checked in on \(isMine ? "your" : "their") behalf \(when)."
            case .resolvedByResponder?: "\(safe) — \(by ?? "a responder") resolved the alert \(when)."
            case nil: "\(safe) — the alert ended \(when)."
            }
        }
        acknowledgedBy = open ? report.acknowledgedByName?.nonEmpty : nil
        acknowledgedByMe = incident.acknowledgedBy == me
        self.isMine = isMine
        isResponder = !isMine
        self.phone = phone
        self.summary = summary
        recipients = report.recipients.map { RecipientView(name: $0.name, deliveries: $0.deliveries) }
        self.emergency = open ? emergency : nil
        self.checkInID = checkInID
    }
}

/// The emergency services to call during an alert: the number where the person's phone is
/// from and, for a responder whose own number is from elsewhere, his own as well.
struct EmergencyCall {
    let number: String
    let lead: String
    let mine: String?

    init(theirs: String, mine: String, firstName: String, isMine: Bool) {
        number = isMine ? mine : theirs
        lead = isMine ? "In danger right now? Call the emergency services" : "If \(firstName) may be in danger, call the emergency services"
        self.mine = isMine || mine == theirs ? nil : mine
    }
}

/// Everything sent to one person (for an incident or a drill), delivery by delivery.
struct RecipientView {
    let name: String
    let deliveries: [DeliveryView]
    let none: Bool

    init(name: String, deliveries: [DeliveryProof]) {
        self.name = name
        self.deliveries = deliveries.map(DeliveryView.init)
        none = deliveries.isEmpty
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
        channel = WebController.channelLabels[delivery.channel] ?? delivery.channel.rawValue
        status = delivery.status.rawValue
        when = WebController.formatDate(delivery.updatedAt)
        reason = delivery.reason?.nonEmpty
        failed = delivery.status == .failed
    }
}
