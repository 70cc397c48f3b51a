import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Sealed details: what the first person at a locked door needs (door code, key, medication,
/// pets, doctor). The person reads and writes her own at any time (`PATCH /v1/me`). A
/// responder opens them only while an alert about her is open, by asking for them (a page's
/// button, the API, or a `DETAILS` text); each opening is recorded on her timeline and she is
/// told who read them. They are never in an alert's text or e-mail.
public struct SealedDetailsAccess: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension SealedDetailsAccess {
    /// The caller's own sealed details.
    public func own(_ caller: Caller) async throws -> SealedDetails {
        try await core.read { tx in
            let stored = try await tx.sealedDetails.details(of: caller.user.id)
            return SealedDetails(details: stored?.details ?? "", updatedAt: stored?.updatedAt)
        }
    }

    /// A responder opens the sealed details of the person an open alert is about. Refused as
    /// not found to anyone who is not her responder, and as resolved once the alert is over.
    public func open(_ caller: Caller, incident id: IncidentID, via: String = "web") async throws -> SealedDetailsView {
        try await core.write { tx, events in
            let (incident, person) = try await core.responderIncident(caller, id: id, tx: tx)
            let opened = try await core.openSealedDetails(
                of: person, incident: incident, by: caller.user, via: via, tx: tx, events: events)
            return SealedDetailsView(
                incidentID: incident.id, userID: person.id, details: opened.details, planDetails: opened.plan, openedAt: core.now)
        }
    }
}

extension ServiceCore {
    /// Reads `person`'s sealed details for `responder` during `incident` (already checked open,
    /// and `responder` hers): counted against the responder's limit, recorded on her timeline,
    /// and told to her once per responder and alert. Nothing is recorded when she has none.
    /// An alert about a plan opens that plan's details with hers (the same reading, recorded once).
    func openSealedDetails(
        of person: User, incident: Incident, by responder: User, via: String, withPlan: Bool = true, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> (details: String, plan: String?) {
        try await enforceLimit(
            configuration.limits.sealedViews, refusal: .tooManySealedViews, sender: responder.id, recipient: person.id,
            message: Said("error.tooManySealedViews"), tx: tx)
        let stored = try await tx.sealedDetails.details(of: person.id)
        let plan = withPlan ? try await incident.planID.asyncMap { try await tx.plans.plan($0)?.details } ?? nil : nil
        guard stored != nil || plan != nil else { return ("", nil) }
        let name = ServiceCore.displayName(of: responder)
        let at = now
        try await tx.timeline.append(
            person.id, at: at, summary: "\(name) read the sealed details",
            SealedDetailsRead(incident: incident.id, by: responder.id, via: via))
        _ = try await notify(
            NotificationDraft(
                recipient: person.id, kind: .sealedDetailsRead, subject: responder.id, incident: incident.id,
                stepKey: .sealedRead(incident: incident.id, by: responder.id, person: person.id), knownRecipient: person
            ) { w in
                (w("sealed.read.title", ["name": name]), w("sealed.read.body", ["name": name, "when": w.time(at, now: at)]))
            },
            tx: tx, events: events)
        return (stored?.details ?? "", plan)
    }

    /// `DETAILS` from a responder's verified number: the sealed details of the person whose open
    /// alert is the most recent, by text to that number (recorded and told like any opening).
    /// Alerts they already said "I'm on it" to count too: that is when the door code is needed.
    func sealedDetailsByText(for responder: User, tx: StoreTransaction, events: PendingEvents) async throws -> String {
        let w = Reader(responder)
        let watched = try await tx.links.all(of: responder.id).filter { $0.roles.isDependent }.map(\.contactID)
        let open = watched.isEmpty ? [] : try await tx.incidents.openIncidents(of: watched)
        guard let incident = open.max(by: { ($0.openedAt, $0.id.description) < ($1.openedAt, $1.id.description) }),
            let person = try await tx.people.user(incident.userID)
        else { return w("reply.details.none") }
        // A plan's details are not sent by text: they are opened on the alert's page, after sign-in.
        let details = try await openSealedDetails(
            of: person, incident: incident, by: responder, via: "text", withPlan: false, tx: tx, events: events
        ).details
        let name = ServiceCore.displayName(of: person)
        return details.isEmpty ? w("reply.details.empty", ["name": name]) : w("reply.details", ["name": name, "details": details])
    }
}
