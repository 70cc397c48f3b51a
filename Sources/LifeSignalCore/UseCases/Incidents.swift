import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Alerts and who is handling them: SOS, a responder's "I'm on it", resolving, the report, and
/// checking in on someone's behalf.
public struct Incidents: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Incidents {
    /// The incident, its person, and every delivery made about it — for the person and their responders.
    public func incidentReport(_ caller: Caller, id: IncidentID) async throws -> IncidentReport {
        try await core.read { tx in
            guard let incident = try await tx.incidents.incident(id), let user = try await tx.people.user(incident.userID) else {
                throw ServiceError(.notFound, code: .incidentNotFound, Said("error.incidentNotFound"))
            }
            if incident.userID != caller.user.id {
                // A responder sees the person's alerts from the link's start: one that was open
                // then (they are being told of it now), never one that had ended before.
                guard let link = try await tx.links.link(userID: caller.user.id, contactID: incident.userID), link.roles.isDependent,
                    incident.resolvedAt.map({ $0 >= link.addedAt }) ?? true
                else { throw ServiceError(.notFound, code: .incidentNotFound, Said("error.incidentNotFound")) }
            }
            let deliveries = try await tx.deliveries.list(incident: id)
            let titles = try await tx.deliveries.notificationTitles(incident: id)
            let recipientIDs = try await tx.incidents.recipients(id)
            let activity = try await tx.deviceLinks.incidentActivity(id)
            let names = try await tx.people.users(recipientIDs)
            let plan = try await incident.planID.asyncMap { try await tx.plans.plan($0) } ?? nil
            return IncidentReport(
                incident: incident,
                user: ContactPreview(
                    userID: user.id, firstName: user.firstName, lastName: user.lastName, hasAvatar: user.hasAvatar,
                    emergencyNote: user.emergencyNote),
                acknowledgedByName: try await incident.acknowledgedBy.asyncMap { try await core.displayName($0, tx: tx) },
                recipients: recipientIDs.map { rid in
                    IncidentReport.Recipient(
                        userID: rid, name: names[rid]?.fullName ?? "a deleted account",
                        deliveries: deliveries.filter { $0.recipientID == rid }.map { DeliveryProof($0, what: titles[$0.notificationID]) })
                },
                activity: activity, plan: plan?.brief)
        }
    }

    /// "I'm on it": the person and the other responders are told who is handling it. The claim lapses
    /// after the policy's claim duration unless the incident is resolved.
    public func acknowledge(_ caller: Caller, incident id: IncidentID) async throws -> Incident {
        try await core.write { tx, events in
            let (incident, user) = try await core.responderIncident(caller, id: id, tx: tx)
            try await core.enforceLimit(
                core.configuration.limits.acknowledgements, refusal: .tooManyAcknowledgements, sender: caller.user.id,
                recipient: user.id, message: Said("error.tooManyClaims"), tx: tx)
            return try await core.claim(incident, of: user, by: caller.user.id, tx: tx, events: events)
        }
    }

    /// A responder closes the incident (they found the person safe). An SOS is its owner's to
    /// clear: a responder may resolve one only after saying "I'm on it" themselves.
    public func resolveIncident(_ caller: Caller, incident id: IncidentID) async throws -> Incident {
        try await core.write { tx, events in
            let (incident, user) = try await core.responderIncident(caller, id: id, tx: tx)
            if incident.kind == .manualAlert, incident.acknowledgedBy != caller.user.id {
                throw ServiceError(
                    .forbidden, code: .acknowledgeFirst,
                    Said("error.acknowledgeFirst", ["name": user.firstName]))
            }
            try await core.resolve(incident, resolution: .resolvedByResponder, by: caller.user.id, user: user, tx: tx, events: events)
            try await core.publishStatus(of: user, tx: tx, events: events)
            return try await tx.incidents.incident(id)!
        }
    }

    /// A responder checks in on a dependent's behalf (recorded as such), only while the person
    /// is non-responsive or has an open incident: otherwise it would push their deadline out
    /// behind their back. The person and every other responder are told who did it.
    public func checkInOnBehalf(_ caller: Caller, of userID: UserID, id: CheckInID) async throws -> CheckInResult {
        try await core.write { tx, events in
            guard try await tx.links.link(userID: caller.user.id, contactID: userID)?.roles.isDependent == true,
                let user = try await tx.people.user(userID)
            else { throw ServiceError.notAResponder }
            let open = try await tx.incidents.openIncidents(of: userID)
            // An SOS is its owner's to clear: checking in for her would tell everyone "all
            // clear" while her alert stays on. A responder says "I'm on it" and resolves it instead.
            if open.contains(where: { $0.kind == .manualAlert }) {
                throw ServiceError(
                    .forbidden, code: .acknowledgeFirst,
                    Said("error.behalfDuringSOS", ["name": user.firstName]))
            }
            try await core.enforceLimit(
                core.configuration.limits.behalfCheckIns, refusal: .tooManyBehalfCheckIns, sender: caller.user.id,
                recipient: userID, message: Said("error.tooManyBehalf", ["name": user.firstName]), tx: tx)
            if try await tx.checkIns.checkIn(id, of: userID) == nil {
                let status = StatusRule.status(of: user, openIncidents: open, now: core.now)
                guard status.state == .nonResponsive || status.state == .alert || status.openIncident != nil else {
                    throw ServiceError(
                        .forbidden, code: .notOverdue,
                        Said("error.notOverdue", ["name": user.firstName]))
                }
            }
            let result = try await core.recordCheckIn(
                userID: userID, id: id, clientAt: nil, source: .responder, recordedBy: caller.user.id, tx: tx, events: events)
            let me = try await core.displayName(caller.user.id, tx: tx)
            let name = ServiceCore.displayName(of: user)
            // Where a missed check-in closed, its all-clear already told every responder who did it.
            let others =
                open.contains { $0.kind == .missedCheckIn }
                ? [] : try await tx.links.responderIDs(of: userID).filter { $0 != caller.user.id }
            var drafts = [
                NotificationDraft(
                    recipient: userID, kind: .incidentResolved, subject: caller.user.id,
                    stepKey: .checkedInOnBehalf(of: userID, checkIn: id, to: userID),
                    knownRecipient: user
                ) { w in (w("behalf.you.title", ["me": me]), w("behalf.you.body", ["me": me])) }
            ]
            for other in others {
                drafts.append(
                    NotificationDraft(
                        recipient: other, kind: .incidentResolved, subject: userID,
                        stepKey: .checkedInOnBehalf(of: userID, checkIn: id, to: other)
                    ) {
                        w in (w("behalf.other.title", ["me": me, "name": name]), w("behalf.other.body", ["me": me, "name": name]))
                    })
            }
            try await core.notify(drafts, tx: tx, events: events)
            return result
        }
    }
}
