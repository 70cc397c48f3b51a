import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

extension Incidents {
    /// SOS: opens a manual-alert incident at once and notifies every responder on every
    /// channel. Raising it again while it is open returns the open one. It is never refused.
    ///
    /// Raised again soon after its owner cleared it (within `sosCoalesceWindow`), the cleared
    /// incident reopens instead of a new one, and each responder is told "raised again" at most
    /// once per window: a raise/clear loop cannot flood anybody's phone, and an alert raised
    /// after a clear someone forced still reaches people (at the latest when the window turns).
    public func raiseAlert(_ caller: Caller) async throws -> Incident {
        try await core.write { tx, events in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            return try await core.raise(user, tx: tx, events: events)
        }
    }

    /// "I'm safe": clears the caller's manual alert; responders are told.
    public func clearAlert(_ caller: Caller) async throws -> CheckInStatus {
        try await core.write { tx, events in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            guard let open = try await tx.incidents.openIncidents(of: user.id).first(where: { $0.kind == .manualAlert }) else {
                throw ServiceError(.conflict, code: .noActiveAlert, Said("error.noActiveAlert"))
            }
            try await core.resolve(open, resolution: .cleared, by: user.id, user: user, tx: tx, events: events)
            return try await core.publishStatus(of: user, tx: tx, events: events)
        }
    }
}

extension ServiceCore {
    /// ``raiseAlert(_:)`` inside a transaction (a ping answered "I need help" raises one too).
    func raise(_ user: User, tx: StoreTransaction, events: PendingEvents) async throws -> Incident {
        if let open = try await tx.incidents.openIncidents(of: user.id).first(where: { $0.kind == .manualAlert }) {
            return open
        }
        if let last = try await tx.incidents.list(of: user.id, limit: 1).first, last.kind == .manualAlert,
            last.resolution == .cleared, last.resolvedBy == user.id, let cleared = last.resolvedAt,
            now.timeIntervalSince(cleared) < configuration.sosCoalesceWindow
        {
            return try await raiseAgain(last, user: user, tx: tx, events: events)
        }
        guard let incident = try await openIncident(.manualAlert, for: user, dueAt: now, late: false, tx: tx, events: events)
        else { throw ServiceError(.conflict, code: .alertActive, Said("error.alertActive")) }
        return incident
    }

    /// Reopens a manual alert its owner cleared moments ago. Responders are told "raised again"
    /// once per window (the window is in the step key, so a repeat within it is a no-op); when
    /// all of them were told already, the next repeat is due when the window turns.
    private func raiseAgain(_ cleared: Incident, user: User, tx: StoreTransaction, events: PendingEvents) async throws -> Incident {
        var incident = cleared
        incident.resolvedAt = nil
        incident.resolvedBy = nil
        incident.resolution = nil
        incident.acknowledgedBy = nil
        incident.acknowledgedAt = nil
        incident.claimExpiresAt = nil
        let window = configuration.sosCoalesceWindow
        let bucket = Int((now.timeIntervalSince1970 / window).rounded(.down))
        let responders = try await tx.links.responders(of: [user.id])[user.id] ?? []
        let (name, note, incidentID) = (Self.displayName(of: user), user.emergencyNote, incident.id)
        let drafts = responders.map { responder in
            NotificationDraft(
                recipient: responder.id, kind: .manualAlert, subject: user.id, incident: incidentID,
                stepKey: .raisedAgain(incident: incident.id, window: bucket, responder: responder.id), knownRecipient: responder
            ) { w in
                let message = w("alert.again.body", ["name": name])
                return (w("alert.again.title", ["name": name]), note.isEmpty ? message : "\(message) \(note)")
            }
        }
        let sent = try await notify(drafts, tx: tx, events: events)
        let told = zip(drafts, sent).compactMap { draft, notification in
            notification.map { IncidentRecipient(incidentID: incident.id, userID: draft.recipient, at: $0.createdAt) }
        }
        if told.isEmpty {
            // Everyone was told within this window: the next repeat comes when it turns.
            incident.nextNotifyAt = Date(timeIntervalSince1970: Double(bucket + 1) * window)
        } else {
            incident.notifyCount += 1
            incident.nextNotifyAt = configuration.escalation.nextNotification(kind: .manualAlert, count: 1, lastAt: now)
        }
        if var ladder = incident.ladder {
            // The ladder keeps its place; its repeats follow the reopened alert.
            ladder.nextRepeatAt = incident.nextNotifyAt
            incident.ladder = ladder
            incident.nextNotifyAt = LadderRule.nextActionAt(ladder)
        }
        try await tx.incidents.update(incident)
        try await tx.incidents.addRecipients(told)
        try await tx.timeline.append(
            user.id, at: now,
            summary: told.isEmpty
                ? "Emergency alert raised again (responders already had one in the last \(Int(window / 60)) minutes; it repeats when the window turns)"
                : "Emergency alert raised again",
            IncidentReopened(incident: incident.id, told: told.count))
        try await publishStatus(of: user, responders: responders.map(\.id), tx: tx, events: events)
        return incident
    }
}
