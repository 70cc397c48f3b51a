import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

extension LifeSignalService {
    /// Closes an incident and sends the all-clear to everyone who was told.
    func resolve(
        _ incident: Incident, resolution: Incident.Resolution, by: UserID, user: User,
        tx: StoreTransaction, events: PendingEvents
    ) async throws {
        var closed = incident
        closed.resolvedAt = now
        closed.resolvedBy = by
        closed.resolution = resolution
        closed.nextNotifyAt = nil
        closed.claimExpiresAt = nil
        try await tx.updateIncident(closed)
        let name = Self.displayName(of: user)
        let (kind, title, body): (Notification.Kind, String, String) =
            switch resolution {
            case .cleared: (.manualAlertCleared, "\(name) is safe", "\(name) cleared their emergency alert.")
            case .checkedIn: (.incidentResolved, "All clear: \(name) checked in", "\(name) checked in. No action is needed.")
            case .checkedInByResponder:
                (.incidentResolved, "All clear for \(name)",
                 "\(try await displayName(by, tx: tx)) checked in on \(name)'s behalf.")
            case .resolvedByResponder:
                (.incidentResolved, "All clear for \(name)", "\(try await displayName(by, tx: tx)) resolved the alert.")
            }
        try await tx.appendTimeline(
            user.id, at: now, kind: "incident_resolved", summary: "\(incident.kind.rawValue) resolved: \(resolution.rawValue)",
            detail: Detail.json(["incident": incident.id.description, "resolution": resolution.rawValue, "by": by.description]))
        for recipient in try await tx.incidentRecipients(incident.id) {
            try await notify(
                NotificationDraft(
                    recipient: recipient, kind: kind, subject: user.id, incident: incident.id, title: title, body: body,
                    stepKey: "incident:\(incident.id):resolved:\(recipient)"),
                tx: tx, events: events)
        }
    }

    /// Opens an incident and tells every responder (the first notification step).
    func openIncident(
        _ kind: Incident.Kind, for user: User, dueAt: Date, late: Bool, tx: StoreTransaction, events: PendingEvents
    ) async throws -> Incident? {
        var incident = Incident(id: newID(), userID: user.id, kind: kind, openedAt: now, dueAt: dueAt, late: late)
        guard try await tx.insertIncident(incident) else { return nil }
        try await tx.appendTimeline(
            user.id, at: now, kind: "incident_opened",
            summary: kind == .manualAlert ? "Emergency alert raised" : "Missed check-in: incident opened\(late ? " (late)" : "")",
            detail: Detail.json(["incident": incident.id.description, "kind": kind.rawValue, "due": ISODate.format(dueAt)]))
        incident = try await notifyResponders(of: incident, user: user, tx: tx, events: events)
        return incident
    }

    /// Sends the incident's next notification round to the responders and plans the one after.
    func notifyResponders(of incident: Incident, user: User, tx: StoreTransaction, events: PendingEvents) async throws -> Incident {
        var incident = incident
        let round = incident.notifyCount + 1
        let name = Self.displayName(of: user)
        let (kind, title, body): (Notification.Kind, String, String) =
            incident.kind == .manualAlert
            ? (.manualAlert, "🆘 \(name) needs help", "\(name) raised an emergency alert. \(user.emergencyNote)")
            : (.incidentOpened, "\(name) missed a check-in",
               "\(name) was due to check in at \(ISODate.format(incident.dueAt)) and hasn't. \(user.emergencyNote)")
        let responders = try await tx.responders(of: user.id)
        for responder in responders {
            let sent = try await notify(
                NotificationDraft(
                    recipient: responder.id, kind: kind, subject: user.id, incident: incident.id,
                    title: round > 1 ? "\(title) (reminder \(round))" : title,
                    body: body.trimmingCharacters(in: .whitespaces),
                    stepKey: "incident:\(incident.id):round:\(round):\(responder.id)", knownRecipient: responder),
                tx: tx, events: events)
            if sent != nil { try await tx.addIncidentRecipient(incident.id, userID: responder.id, at: now) }
        }
        incident.notifyCount = round
        incident.nextNotifyAt = configuration.escalation.nextNotification(kind: incident.kind, count: round, lastAt: now)
        try await tx.updateIncident(incident)
        try await publishStatus(of: user, responders: responders.map(\.id), tx: tx, events: events)
        return incident
    }

    /// The incident, its person, and every delivery made about it — for the person and their responders.
    public func incidentReport(_ caller: Caller, id: IncidentID) async throws -> IncidentReport {
        try await read { tx in
            guard let incident = try await tx.incident(id), let user = try await tx.user(incident.userID) else {
                throw ServiceError(.notFound, code: "incident_not_found", "That alert doesn't exist.")
            }
            if incident.userID != caller.user.id,
                try await tx.link(userID: caller.user.id, contactID: incident.userID)?.roles.isDependent != true
            {
                throw ServiceError(.notFound, code: "incident_not_found", "That alert doesn't exist.")
            }
            let deliveries = try await tx.deliveries(incident: id)
            let recipientIDs = try await tx.incidentRecipients(id)
            let names = try await tx.users(recipientIDs)
            return IncidentReport(
                incident: incident,
                user: ContactPreview(userID: user.id, firstName: user.firstName, lastName: user.lastName, emergencyNote: user.emergencyNote),
                acknowledgedByName: try await incident.acknowledgedBy.asyncMap { try await displayName($0, tx: tx) },
                recipients: recipientIDs.map { rid in
                    IncidentReport.Recipient(
                        userID: rid, name: names[rid]?.fullName ?? "a deleted account",
                        deliveries: deliveries.filter { $0.recipientID == rid })
                })
        }
    }

    /// "I'm on it": the other responders are told who is handling it. The claim lapses
    /// after the policy's claim duration unless the incident is resolved.
    public func acknowledge(_ caller: Caller, incident id: IncidentID) async throws -> Incident {
        try await write { tx, events in
            let (incident, user) = try await responderIncident(caller, id: id, tx: tx)
            var claimed = incident
            claimed.acknowledgedBy = caller.user.id
            claimed.acknowledgedAt = now
            claimed.claimExpiresAt = now.addingTimeInterval(configuration.escalation.claimDuration)
            claimed.nextNotifyAt = nil
            try await tx.updateIncident(claimed)
            let me = try await displayName(caller.user.id, tx: tx)
            let name = user.fullName
            try await tx.appendTimeline(
                user.id, at: now, kind: "incident_acknowledged", summary: "\(me) is handling it",
                detail: Detail.json(["incident": id.description, "by": caller.user.id.description]))
            for other in try await tx.responderIDs(of: user.id) where other != caller.user.id {
                try await notify(
                    NotificationDraft(
                        recipient: other, kind: .incidentAcknowledged, subject: user.id, incident: id,
                        title: "\(me) is handling \(name)'s alert", body: "\(me) said “I'm on it”.",
                        stepKey: "incident:\(id):ack:\(claimed.acknowledgedAt!.milliseconds):\(other)"),
                    tx: tx, events: events)
            }
            try await publishStatus(of: user, tx: tx, events: events)
            return claimed
        }
    }

    /// A responder closes the incident (they found the person safe).
    public func resolveIncident(_ caller: Caller, incident id: IncidentID) async throws -> Incident {
        try await write { tx, events in
            let (incident, user) = try await responderIncident(caller, id: id, tx: tx)
            try await resolve(incident, resolution: .resolvedByResponder, by: caller.user.id, user: user, tx: tx, events: events)
            try await publishStatus(of: user, tx: tx, events: events)
            return try await tx.incident(id)!
        }
    }

    /// A responder checks in on a dependent's behalf (recorded as such); resolves a missed check-in.
    public func checkInOnBehalf(_ caller: Caller, of userID: UserID, id: CheckInID) async throws -> CheckInResult {
        try await write { tx, events in
            guard try await tx.link(userID: caller.user.id, contactID: userID)?.roles.isDependent == true else {
                throw ServiceError.notAResponder
            }
            return try await recordCheckIn(
                userID: userID, id: id, clientAt: nil, source: .responder, recordedBy: caller.user.id, tx: tx, events: events)
        }
    }

    private func responderIncident(_ caller: Caller, id: IncidentID, tx: StoreTransaction) async throws -> (Incident, User) {
        guard let incident = try await tx.incident(id),
            try await tx.link(userID: caller.user.id, contactID: incident.userID)?.roles.isDependent == true,
            let user = try await tx.user(incident.userID)
        else { throw ServiceError(.notFound, code: "incident_not_found", "That alert doesn't exist.") }
        guard incident.isOpen else {
            throw ServiceError(.conflict, code: "incident_resolved", "This alert is already resolved.")
        }
        return (incident, user)
    }
}
