import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

// The transaction steps of alerts: opening an incident, telling its responders round by round,
// claiming it, resolving it, and the sentences its report is made of.

extension ServiceCore {
    /// An open incident about one of `caller`'s dependents, with the person: not found to
    /// anyone who is not her responder, a conflict once it is resolved.
    func responderIncident(_ caller: Caller, id: IncidentID, tx: StoreTransaction) async throws -> (Incident, User) {
        guard let incident = try await tx.incidents.incident(id),
            try await tx.links.link(userID: caller.user.id, contactID: incident.userID)?.roles.isDependent == true,
            let user = try await tx.people.user(incident.userID)
        else { throw ServiceError(.notFound, code: .incidentNotFound, Said("error.incidentNotFound")) }
        guard incident.isOpen else {
            throw ServiceError(.conflict, code: .incidentResolved, Said("error.incidentResolved"))
        }
        return (incident, user)
    }

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
        try await tx.incidents.update(closed)
        if incident.planID != nil { try await endPlanAfterAlert(incident, tx: tx) }
        let name = Self.displayName(of: user)
        let kind: Notification.Kind = resolution == .cleared ? .manualAlertCleared : .incidentResolved
        let byName = resolution == .checkedInByResponder || resolution == .resolvedByResponder ? try await displayName(by, tx: tx) : ""
        // "Ada is safe — checked in at 09:40 her time": each recipient reads when, in their
        // own clock and hers where they differ.
        let (moment, subjectZone) = (self.now, HumanTime.zone(user.timeZone))
        let bodyKey =
            switch resolution {
            case .cleared: "safe.cleared"
            case .checkedIn: "safe.checkedIn"
            case .checkedInByResponder: "safe.checkedInBy"
            case .resolvedByResponder: "safe.resolvedBy"
            }
        try await tx.timeline.append(
            user.id, at: now, summary: Self.resolvedSummary(incident.kind, resolution),
            IncidentResolved(incident: incident.id, resolution: resolution, by: by))
        let recipients = try await tx.incidents.recipients(incident.id)
        let readers = try await tx.people.users(recipients)
        for recipient in recipients {
            try await notify(
                NotificationDraft(
                    recipient: recipient, kind: kind, subject: user.id, incident: incident.id,
                    // Per round: after a quiet reopen (nobody told anything new) a second
                    // all-clear is a no-op; after a round that told them, they hear it again.
                    stepKey: .resolved(incident: incident.id, round: incident.notifyCount, recipient: recipient),
                    knownRecipient: readers[recipient]
                ) { w in
                    let when = w.time(moment, subject: subjectZone, now: moment)
                    return (w("safe.title", ["name": name]), w(bodyKey, ["name": name, "by": byName, "when": when]))
                },
                tx: tx, events: events)
        }
    }

    /// Opens an incident and tells every responder (the first notification step).
    func openIncident(
        _ kind: Incident.Kind, for user: User, dueAt: Date, late: Bool, tx: StoreTransaction, events: PendingEvents
    ) async throws -> Incident? {
        try await openIncidents([IncidentOpening(kind: kind, user: user, dueAt: dueAt, late: late)], tx: tx, events: events)[0]
    }

    /// Opens incidents and sends each one's first round, in a fixed number of statements
    /// whatever their count (the engine opens a burst this way). Each incident snapshots the
    /// person's ladder as it is now: a missed check-in tells its first step, an SOS every step
    /// (unless she chose to have it climb). Returns, for each opening in order, the incident,
    /// or nil when one of that kind was already open for the person.
    func openIncidents(_ openings: [IncidentOpening], tx: StoreTransaction, events: PendingEvents) async throws -> [Incident?] {
        guard !openings.isEmpty else { return [] }
        let people = openings.map(\.user.id)
        let (ladders, responders, keyHolders) = (
            try await tx.ladders.ladders(of: people), try await tx.links.responders(of: people), try await tx.links.keyHolders(of: people)
        )
        let policy = configuration.escalation
        // Stored with its first round already counted: the round below goes out in the same transaction.
        let incidents = openings.map { opening in
            let ladder = ladders[opening.user.id] ?? .default
            let ordered = Self.keyHoldersFirst(responders[opening.user.id] ?? [], keyHolders: keyHolders[opening.user.id] ?? [])
            var snapshot = LadderRule.snapshot(
                ladder, responders: ordered.map(\.id), openedAt: now,
                climbs: opening.kind != .manualAlert || ladder.sosClimbs,
                repeatAt: policy.nextNotification(kind: opening.kind, count: 1, lastAt: now), exhaustAfter: policy.exhaustAfter)
            // No silent skip: a first step whose people are all gone gives way to the next at once.
            snapshot.told = LadderRule.skippingEmpty(snapshot)
            return Incident(
                id: newID(), userID: opening.user.id, kind: opening.kind, openedAt: now, dueAt: opening.dueAt,
                late: opening.late, notifyCount: 1, nextNotifyAt: LadderRule.nextActionAt(snapshot),
                ladder: snapshot, planID: opening.planID)
        }
        let inserted = try await tx.incidents.insert(incidents)
        var rounds: [AlertRound] = []
        for (opening, incident) in zip(openings, incidents) where inserted.contains(incident.id) {
            try await tx.timeline.append(
                opening.user.id, at: now,
                summary: opening.kind == .manualAlert
                    ? "Emergency alert raised"
                    : opening.kind == .planOverdue
                        ? "Late back from a plan: incident opened" : "Missed check-in: incident opened\(opening.late ? " (late)" : "")",
                IncidentOpened(incident: incident.id, kind: opening.kind, due: opening.dueAt))
            rounds.append(AlertRound(incident: incident, user: opening.user))
            events.count(.incidentOpened(opening.kind))
        }
        try await sendRounds(rounds, known: (responders, keyHolders), tx: tx, events: events)
        return incidents.map { inserted.contains($0.id) ? $0 : nil }
    }

    /// Sends the incident's next notification round to everyone its ladder has told (with
    /// `newlyTold`, the people of the steps just reached) and stores it counted.
    func notifyResponders(
        of incident: Incident, user: User, newlyTold: [UserID] = [], lateSince: Date? = nil, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> Incident {
        var incident = incident
        incident.notifyCount += 1
        try await tx.incidents.update(incident)
        try await sendRounds(
            [AlertRound(incident: incident, user: user, newlyTold: newlyTold, lateSince: lateSince)], tx: tx, events: events)
        return incident
    }

    /// The responders an incident's next round goes to: everyone on the steps its ladder has
    /// told, and anyone who became a responder after it opened (on no step: told at once).
    /// Someone no longer a responder gets nothing more.
    static func alertRecipients(of incident: Incident, among current: [User]) -> [User] {
        guard let ladder = incident.ladder else { return current }
        let (told, everyone) = (Set(ladder.toldResponders), ladder.everyone)
        return current.filter { told.contains($0.id) || !everyone.contains($0.id) }
    }

    /// `responders` with the ones holding a key first, each group in its order.
    static func keyHoldersFirst(_ responders: [User], keyHolders: [UserID]) -> [User] {
        let holders = Set(keyHolders)
        return responders.filter { holders.contains($0.id) } + responders.filter { !holders.contains($0.id) }
    }

    /// Tells each incident's responders about round `notifyCount` (once per round and responder),
    /// remembers them for the all-clear and publishes each person's new status. Only the people
    /// the ladder has reached are told; those told before hear who was told now, and everyone
    /// hears first who has a key.
    /// `known` are the people's responders and key holders when the caller has just read them.
    private func sendRounds(
        _ rounds: [AlertRound], known: (responders: [UserID: [User]], keyHolders: [UserID: [UserID]])? = nil,
        tx: StoreTransaction, events: PendingEvents
    ) async throws {
        guard !rounds.isEmpty else { return }
        let people = rounds.map(\.user.id)
        let responders: [UserID: [User]]
        let keyHolders: [UserID: [UserID]]
        if let known {
            (responders, keyHolders) = known
        } else {
            (responders, keyHolders) = (try await tx.links.responders(of: people), try await tx.links.keyHolders(of: people))
        }
        let calls = try await dailyCallTries(of: rounds, tx: tx)
        var plans: [PlanID: Plan] = [:]
        for case let id? in Set(rounds.map(\.incident.planID)) { plans[id] = try await tx.plans.plan(id) }
        var drafts: [NotificationDraft] = []
        for round in rounds {
            let (incident, user) = (round.incident, round.user)
            let tries = calls[incident.id] ?? []
            let number = incident.notifyCount
            let name = Self.displayName(of: user)
            let sos = incident.kind == .manualAlert
            let kind: Notification.Kind = sos ? .manualAlert : .incidentOpened
            // A plan's alert says what she is late back from and what she asked of them; never its details.
            let plan = incident.planID.flatMap { plans[$0] }
            // A long plan's alert about a check-in it asked for, before its due time: said as a
            // missed check-in, not as being late back.
            let missedPlanCheckIn = plan.map { incident.dueAt < $0.dueAt } ?? false
            let (moment, dueAt, note, subjectZone) = (self.now, incident.dueAt, user.emergencyNote, HumanTime.zone(user.timeZone))
            let current = Self.keyHoldersFirst(responders[user.id] ?? [], keyHolders: keyHolders[user.id] ?? [])
            let recipients = Self.alertRecipients(of: incident, among: current)
            let holders = Set(keyHolders[user.id] ?? [])
            let newly = Set(round.newlyTold)
            let newlyNames = current.filter { newly.contains($0.id) }.map { Self.displayName(of: $0) }
            let lateSince = round.lateSince
            for responder in recipients {
                let holderNames = current.filter { holders.contains($0.id) && $0.id != responder.id }.map { Self.displayName(of: $0) }
                let isNew = newly.contains(responder.id)
                let toldToo = !newly.isEmpty && !isNew ? newlyNames : []
                // Each responder reads in their own language and zone, and her clock when it
                // differs. Her note is hers: never translated.
                drafts.append(
                    NotificationDraft(
                        recipient: responder.id, kind: kind, subject: user.id, incident: incident.id,
                        stepKey: .alertRound(incident: incident.id, round: number, responder: responder.id), knownRecipient: responder
                    ) { w in
                        let title =
                            sos
                            ? w("alert.sos.title", ["name": name])
                            : plan.map {
                                w(missedPlanCheckIn ? "alert.planCheckIn.title" : "alert.plan.title", ["name": name, "title": $0.title])
                            }
                                ?? w("alert.missed.title", ["name": name])
                        let when = w.time(dueAt, subject: subjectZone, now: moment)
                        var message =
                            sos
                            ? w("alert.sos.body", ["name": name])
                            : plan != nil
                                ? w(missedPlanCheckIn ? "alert.planCheckIn.body" : "alert.plan.body", ["name": name, "when": when])
                                : w("alert.missed.body", ["name": name, "when": when])
                        if let lateSince, isNew { message = EscalationEngine.lateNote(lateSince, w, now: moment) + " " + message }
                        if !tries.isEmpty {
                            message += " " + Self.dailyCallTriesSentence(tries, name: name, w)
                        }
                        if !holderNames.isEmpty {
                            message += " " + w("ladder.keyHolder", ["names": w.words.list(holderNames)], count: holderNames.count)
                        }
                        if !toldToo.isEmpty {
                            message += " " + w("ladder.toldToo", ["names": w.words.list(toldToo)], count: toldToo.count)
                        }
                        return (
                            number > 1 && !isNew ? w("alert.round", ["title": title, "round": String(number)]) : title,
                            note.isEmpty ? message : "\(message) \(note)"
                        )
                    })
            }
            // The person is told who was alerted (or that nobody could be) when it opens, and
            // who was told next as the ladder climbs.
            if number == 1 {
                drafts.append(alertedNotice(for: incident, user: user, responders: recipients))
            } else if !newlyNames.isEmpty, let ladder = incident.ladder {
                drafts.append(climbedNotice(for: incident, user: user, names: newlyNames, step: ladder.told))
            }
        }
        let sent = try await notify(drafts, tx: tx, events: events)
        try await tx.incidents.addRecipients(
            zip(drafts, sent).compactMap { draft, notification in
                guard draft.recipient != draft.subject else { return nil }
                return notification.map { IncidentRecipient(incidentID: draft.incident!, userID: draft.recipient, at: $0.createdAt) }
            })
        try await publishStatus(of: rounds.map(\.user), responders: responders.mapValues { $0.map(\.id) }, tx: tx, events: events)
    }

    /// ``acknowledge(_:incident:)`` inside a transaction, for a responder already checked (a
    /// text or a keypress answers an alert too).
    func claim(
        _ incident: Incident, of user: User, by responderID: UserID, tx: StoreTransaction, events: PendingEvents
    ) async throws -> Incident {
        guard
            case .claim(let takenFrom) = ClaimRule.decide(
                holder: incident.acknowledgedBy, claimExpiresAt: incident.claimExpiresAt, responder: responderID, now: now)
        else { return incident }
        let id = incident.id
        var claimed = incident
        claimed.acknowledgedBy = responderID
        claimed.acknowledgedAt = now
        claimed.claimExpiresAt = now.addingTimeInterval(configuration.escalation.claimDuration)
        claimed.nextNotifyAt = nil
        try await tx.incidents.update(claimed)
        let me = try await displayName(responderID, tx: tx)
        let name = user.fullName
        try await tx.timeline.append(
            user.id, at: now, summary: "\(me) is handling it", IncidentAcknowledged(incident: id, by: responderID))
        // One "X is on it" per responder and window: pressing it again and again tells nobody twice.
        let window = ClaimRule.noticeWindow(at: now, length: configuration.escalation.repeatInterval)
        // Told to the responders the ladder has reached: someone on a later step never heard of
        // the alert, and "Bob is on it" would only alarm them.
        for other in try await tx.incidents.recipients(id) where other != responderID {
            let takenOver = other == takenFrom
            let draft = NotificationDraft(
                recipient: other, kind: .incidentAcknowledged, subject: user.id, incident: id,
                stepKey: takenOver
                    ? .takenOver(incident: id, by: responderID, window: window, from: other)
                    : .claimed(incident: id, by: responderID, window: window, to: other)
            ) { w in
                takenOver
                    ? (w("claim.takenOver.title", ["me": me, "name": name]), w("claim.takenOver.body", ["me": me]))
                    : (w("claim.handling.title", ["me": me, "name": name]), w("claim.handling.body", ["me": me]))
            }
            try await notify(draft, tx: tx, events: events)
        }
        var notice = onItNotice(for: claimed, by: me, at: now, zone: HumanTime.zone(user.timeZone))
        notice.stepKey = .claimed(incident: id, by: responderID, window: window, to: user.id)
        try await notify(notice, tx: tx, events: events)
        try await publishStatus(of: user, tx: tx, events: events)
        return claimed
    }
}

extension ServiceCore {
    /// How each try of the daily call went before a missed check-in opened, by incident: for
    /// the rounds about people on a daily call ("09:00 no answer, 09:15 answered, no key").
    /// Read in one query for all the rounds.
    func dailyCallTries(of rounds: [AlertRound], tx: StoreTransaction) async throws -> [IncidentID: [(Date, DailyCallRule.Outcome)]] {
        var keys: [IncidentID: [String]] = [:]
        for round in rounds where round.incident.kind == .missedCheckIn {
            guard let call = round.user.schedule.dailyCall else { continue }
            keys[round.incident.id] = (1...call.attempts).map {
                StepKey.dailyCall(user: round.user.id, deadline: round.incident.dueAt, attempt: $0).rawValue
            }
        }
        guard !keys.isEmpty else { return [:] }
        // The last delivery of each try is how it ended (a refused call has only one).
        var last: [String: DailyCallTry] = [:]
        for found in try await tx.dailyCalls.tries(stepKeys: keys.values.flatMap { $0 }) { last[found.stepKey] = found }
        return keys.mapValues { keys in
            keys.compactMap { last[$0] }.map { ($0.at, DailyCallRule.outcome(status: $0.status, reason: $0.reason)) }
        }
    }

    /// "Today's calls to Ada: 09:00 no answer, 09:15 answered, no key pressed, 09:30 busy."
    /// Times on the reader's clock.
    static func dailyCallTriesSentence(_ tries: [(Date, DailyCallRule.Outcome)], name: String, _ w: Reader) -> String {
        let each = tries.map { at, outcome in
            w("dailyCall.try", ["time": HumanTime.clock(at, in: w.zone), "outcome": w("dailyCall.outcome.\(outcome.rawValue)")])
        }
        return w("dailyCall.tries", ["name": name, "tries": w.words.list(each)])
    }

    /// How an ended incident reads on the timeline: in words, never the stored enum values.
    static func resolvedSummary(_ kind: Incident.Kind, _ resolution: Incident.Resolution) -> String {
        let what =
            switch kind {
            case .manualAlert: "Emergency alert"
            case .missedCheckIn: "Missed check-in"
            case .planOverdue: "Late back from a plan"
            }
        let how =
            switch resolution {
            case .checkedIn: "checked in"
            case .checkedInByResponder: "a responder checked in for them"
            case .cleared: "cleared: safe"
            case .resolvedByResponder: "resolved by a responder"
            }
        return "\(what) ended (\(how))"
    }
}

/// One round of alerts about an incident: to everyone its ladder has told, `newlyTold` being
/// the people of the steps it has just reached (late when those steps were due while no engine ran).
struct AlertRound: Sendable {
    var incident: Incident
    var user: User
    var newlyTold: [UserID] = []
    var lateSince: Date? = nil
}

/// An incident the engine or an alert is about to open.
struct IncidentOpening: Sendable {
    var kind: Incident.Kind
    var user: User
    var dueAt: Date
    var late: Bool
    /// The plan she is late back from (``Incident/Kind/planOverdue``).
    var planID: PlanID? = nil
}
