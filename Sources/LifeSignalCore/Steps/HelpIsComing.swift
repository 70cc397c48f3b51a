import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// "Help is coming": the person an incident is about is told the truth about it — who was
/// alerted, how each alert went, who is on it — in their status and in notifications.
extension ServiceCore {
    /// How many of a responder's latest alert deliveries a status carries.
    static let deliveriesShownPerResponder = 6

    /// The person's status with the open incident's responders filled in.
    func statusWithHelp(of user: User, openIncidents: [Incident], tx: StoreTransaction) async throws -> CheckInStatus {
        var statuses = [StatusRule.status(of: user, openIncidents: openIncidents, now: now)]
        try await fillHelp(&statuses, tx: tx)
        return statuses[0]
    }

    /// Fills every status's open incident with its responders and their deliveries: two reads
    /// whatever the number of statuses (the engine publishes a batch at once).
    func fillHelp(_ statuses: inout [CheckInStatus], tx: StoreTransaction) async throws {
        let ids = statuses.compactMap(\.openIncident?.id)
        guard !ids.isEmpty else { return }
        let recipients = Dictionary(grouping: try await tx.incidents.recipientRows(ids), by: \.incidentID)
        var deliveries: [IncidentID: [UserID: [DeliveryProof]]] = [:]
        for found in try await tx.incidents.alertDeliveries(incidents: ids) {
            deliveries[found.incidentID, default: [:]][found.delivery.recipientID, default: []].append(DeliveryProof(found.delivery))
        }
        for index in statuses.indices {
            guard var summary = statuses[index].openIncident else { continue }
            summary.responders = (recipients[summary.id] ?? []).map { row in
                ResponderProgress(
                    userID: row.userID,
                    name: Self.displayName(firstName: row.firstName, lastName: row.lastName, phone: row.phone),
                    deliveries: Array((deliveries[summary.id]?[row.userID] ?? []).suffix(Self.deliveriesShownPerResponder)),
                    acknowledgedAt: row.userID == summary.acknowledgedBy ? summary.acknowledgedAt : nil)
            }
            if let by = summary.acknowledgedBy {
                if let known = summary.responders?.first(where: { $0.userID == by }) {
                    summary.acknowledgedByName = known.name
                } else {
                    summary.acknowledgedByName = try await displayName(by, tx: tx)
                }
            }
            statuses[index].openIncident = summary
        }
    }

    /// The notice an incident's person gets when it opens: who was alerted, or that nobody was.
    /// Its own kind (`alertSent`), so a text or call of it carries her prompts ("Reply OK if
    /// you're safe"), never a responder's "Reply 1 or ON IT".
    func alertedNotice(for incident: Incident, user: User, responders: [User]) -> NotificationDraft {
        let names = responders.map { Self.displayName(of: $0) }
        let sos = incident.kind == .manualAlert
        return NotificationDraft(
            recipient: user.id, kind: .alertSent, subject: user.id, incident: incident.id,
            stepKey: .alerted(incident: incident.id, person: user.id), knownRecipient: user
        ) { w in
            guard !names.isEmpty else { return (w("told.nobody.title"), w("told.nobody.body")) }
            let list = w.words.list(names)
            return (
                w("told.alerted.title", ["names": list], count: names.count),
                sos
                    ? w("told.sos.body", ["names": list])
                    : incident.kind == .planOverdue
                        ? w("told.plan.body", ["names": list], count: names.count)
                        : w("told.missed.body", ["names": list], count: names.count)
            )
        }
    }

    /// "Bob is on it", for the person the incident is about.
    func onItNotice(for incident: Incident, by name: String, at: Date, zone: TimeZone) -> NotificationDraft {
        let now = self.now
        return NotificationDraft(
            recipient: incident.userID, kind: .incidentAcknowledged, subject: incident.userID, incident: incident.id,
            stepKey: .onIt(incident: incident.id, at: at, person: incident.userID)
        ) { w in (w("told.onIt.title", ["name": name]), w("told.onIt.body", ["name": name, "when": w.time(at, now: now)])) }
    }

    /// A claim lapsed without the incident being resolved: the person is told alerting resumes.
    func claimLapsedNotice(for incident: Incident, holder: String, at: Date, zone: TimeZone) -> NotificationDraft {
        let now = self.now
        return NotificationDraft(
            recipient: incident.userID, kind: .incidentAcknowledged, subject: incident.userID, incident: incident.id,
            stepKey: .claimLapsed(incident: incident.id, at: at, person: incident.userID)
        ) { w in
            (w("told.lapsed.title", ["name": holder]), w("told.lapsed.body", ["name": holder, "when": w.time(at, now: now)]))
        }
    }

    /// The people whose open incident's alert deliveries just changed see it live: their
    /// statuses are published again, all in a few reads whatever their number.
    func publishHelpProgress(of people: Set<UserID>, tx: StoreTransaction, events: PendingEvents) async throws {
        guard !people.isEmpty else { return }
        let users = Array(try await tx.people.users(Array(people)).values)
        let responders = try await tx.links.responders(of: users.map(\.id))
        try await publishStatus(of: users, responders: responders.mapValues { $0.map(\.id) }, tx: tx, events: events)
    }
}

extension ServiceCore {
    /// After an alert delivery failed with no channel left to try: when every delivery of that
    /// notification failed, the person and the other responders are told "We could not reach
    /// Cy" and the timeline says so — once per responder and round (the notification is the
    /// round's, and the step keys make a repeat a no-op).
    func reportUnreachableIfAllFailed(
        _ notification: Notification, recipientName name: String, tx: StoreTransaction, events: PendingEvents
    ) async throws {
        guard Self.isAlert(notification.type), let incidentID = notification.incidentID,
            let subject = notification.subjectUserID, subject != notification.recipientID,
            try await tx.deliveries.list(notification: notification.id).allSatisfy({ $0.status == .failed }),
            let incident = try await tx.incidents.incident(incidentID), incident.isOpen
        else { return }
        guard let person = try await tx.people.user(subject) else { return }
        let personName = Self.displayName(of: person)
        var drafts = [
            NotificationDraft(
                recipient: subject, kind: .deliveryFailed, subject: subject, incident: incidentID,
                stepKey: .unreachable(incident: incidentID, notification: notification.id, to: subject),
                knownRecipient: person
            ) { w in (w("told.unreachable.title", ["name": name]), w("told.unreachable.person", ["name": name])) }
        ]
        for other in try await tx.incidents.recipients(incidentID) where other != notification.recipientID {
            drafts.append(
                NotificationDraft(
                    recipient: other, kind: .deliveryFailed, subject: subject, incident: incidentID,
                    stepKey: .unreachable(incident: incidentID, notification: notification.id, to: other)
                ) { w in
                    (w("told.unreachable.title", ["name": name]), w("told.unreachable.other", ["name": name, "person": personName]))
                })
        }
        guard try await notify(drafts, tx: tx, events: events)[0] != nil else { return }
        try await tx.timeline.append(
            subject, at: now, summary: "We could not reach \(name): every channel failed",
            Unreachable(incident: incidentID, notification: notification.id, recipient: notification.recipientID))
        try await climbIfStepUnreachable(incidentID, tx: tx)
        try await publishStatus(of: person, tx: tx, events: events)
    }

    /// No silent skip: when nobody on the step the ladder told last could be reached, the next
    /// step is due now (the engine's next pass tells it, and the person hears who).
    func climbIfStepUnreachable(_ id: IncidentID, tx: StoreTransaction) async throws {
        guard var incident = try await tx.incidents.lock(id), incident.isOpen, incident.acknowledgedBy == nil,
            let ladder = incident.ladder
        else { return }
        let deliveries = try await tx.incidents.alertDeliveries(incidents: [id]).map {
            ($0.delivery.recipientID, $0.delivery.status == .failed)
        }
        guard LadderRule.stepUnreachable(ladder, deliveries: deliveries) else { return }
        incident.ladder = LadderRule.nextStepNow(ladder, now: now)
        incident.nextNotifyAt = now
        try await tx.incidents.update(incident)
    }
}
