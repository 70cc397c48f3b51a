import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// What the ladder tells people as it climbs, when a claim on it lapses, and when it is
/// exhausted with nobody on it.
extension ServiceCore {
    /// "Ben has now been told too", to the person, when her ladder reached step `step`.
    func climbedNotice(for incident: Incident, user: User, names: [String], step: Int) -> NotificationDraft {
        NotificationDraft(
            recipient: user.id, kind: .alertSent, subject: user.id, incident: incident.id,
            stepKey: .climbed(incident: incident.id, step: step, to: user.id), knownRecipient: user
        ) { w in
            let list = w.words.list(names)
            return (
                w("ladder.climbed.title", ["names": list], count: names.count),
                w("ladder.climbed.body", ["names": list], count: names.count)
            )
        }
    }

    /// "Your “I'm on it” for Ada lapsed", to the responder whose claim lapsed: alerting resumed.
    func claimLapsedToHolderNotice(for incident: Incident, user: User, holder: UserID, at: Date) -> NotificationDraft {
        let (name, now) = (Self.displayName(of: user), self.now)
        return NotificationDraft(
            recipient: holder, kind: .incidentAcknowledged, subject: user.id, incident: incident.id,
            stepKey: .claimLapsedToHolder(incident: incident.id, at: at, holder: holder)
        ) { w in
            (w("ladder.lapsed.title", ["name": name]), w("ladder.lapsed.body", ["name": name, "when": w.time(at, now: now)]))
        }
    }

    /// Nobody has said "I'm on it" after the last step: every responder still linked who was told
    /// is called (their phone first, their usual channels after), the person is called back once,
    /// both hear the local emergency number, and the timeline says so. Once per incident (the
    /// step keys); the repeats go on to everyone up to their cap.
    func exhaust(_ incident: Incident, user: User, responders current: [User], tx: StoreTransaction, events: PendingEvents) async throws {
        let recipients = Self.alertRecipients(of: incident, among: current)
        let name = Self.displayName(of: user)
        let number = EmergencyNumber.forPhone(user.phone)
        let sos = incident.kind == .manualAlert
        var drafts = recipients.map { responder in
            var draft = NotificationDraft(
                recipient: responder.id, kind: sos ? .manualAlert : .incidentOpened, subject: user.id, incident: incident.id,
                stepKey: .exhausted(incident: incident.id, to: responder.id), knownRecipient: responder
            ) { w in
                (w("ladder.exhausted.title", ["name": name]), w("ladder.exhausted.responder", ["name": name, "number": number]))
            }
            draft.callFirst = true
            return draft
        }
        let names = recipients.map { Self.displayName(of: $0) }
        var callBack = NotificationDraft(
            recipient: user.id, kind: .alertSent, subject: user.id, incident: incident.id,
            stepKey: .exhausted(incident: incident.id, to: user.id), knownRecipient: user
        ) { w in
            (
                w("ladder.exhausted.title.you"),
                names.isEmpty
                    ? w("ladder.exhausted.you.nobody", ["number": number])
                    : w("ladder.exhausted.you", ["names": w.words.list(names), "number": number], count: names.count)
            )
        }
        callBack.callFirst = true
        drafts.append(callBack)
        let sent = try await notify(drafts, tx: tx, events: events)
        guard sent.contains(where: { $0 != nil }) else { return }
        try await tx.timeline.append(
            user.id, at: now, summary: "Nobody has confirmed they are coming: everyone is being called",
            LadderExhausted(incident: incident.id, called: recipients.count))
        events.count(.ladderExhausted(incident.kind))
    }
}
