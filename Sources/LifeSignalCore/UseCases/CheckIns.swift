import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Checking in, and the status and history it moves: "I'm OK" from the app, the web, the CLI
/// or an API token.
public struct CheckIns: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension CheckIns {
    /// "I'm OK". Recorded once per client-generated id; moves the deadline to now + interval;
    /// resolves an open missed-check-in incident and tells everyone who was alerted.
    /// Any credential may do this, a check-in token included.
    ///
    /// With `callMe` ("I'm OK, but please call me today") her responders are also told,
    /// quietly and without an incident, at most once a calendar day each (``CallRequest``).
    /// Only her own credential reaches this: nobody asks for a call in someone else's name.
    public func checkIn(
        _ caller: Credential, id: CheckInID, clientAt: Date?, source: CheckIn.Source, callMe: Bool = false
    ) async throws -> CheckInResult {
        let source = caller.session.kind == .apiToken ? .apiToken : source
        return try await core.write { tx, events in
            try await core.recordCheckIn(
                userID: caller.user.id, id: id, clientAt: clientAt, source: source, recordedBy: nil, callMe: callMe, tx: tx,
                events: events)
        }
    }

    /// One's own status: any credential, a check-in token included.
    public func status(_ caller: Credential) async throws -> CheckInStatus {
        try await core.read { tx in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            return try await core.statusWithHelp(of: user, openIncidents: try await tx.incidents.openIncidents(of: user.id), tx: tx)
        }
    }

    /// A full caller may do all a credential may.
    public func checkIn(
        _ caller: Caller, id: CheckInID, clientAt: Date?, source: CheckIn.Source, callMe: Bool = false
    ) async throws -> CheckInResult {
        try await checkIn(caller.credential, id: id, clientAt: clientAt, source: source, callMe: callMe)
    }

    public func status(_ caller: Caller) async throws -> CheckInStatus { try await status(caller.credential) }

    /// A dependent's status, for one of their responders only.
    public func status(_ caller: Caller, of userID: UserID) async throws -> CheckInStatus {
        if userID == caller.user.id { return try await status(caller) }
        return try await core.read { tx in
            guard try await tx.links.link(userID: caller.user.id, contactID: userID)?.roles.isDependent == true,
                let user = try await tx.people.user(userID)
            else { throw ServiceError.userNotFound }
            return try await core.statusWithHelp(of: user, openIncidents: try await tx.incidents.openIncidents(of: userID), tx: tx)
        }
    }

    /// "I'm OK, give me 2 more hours": her next deadline moves later, once, before it comes.
    /// Told to nobody (only if she is late then do her responders hear, as always); her
    /// reminders are planned again for the new time. Not a check-in.
    public func addTime(_ caller: Caller, minutes: Int) async throws -> CheckInStatus {
        try await core.write { tx, events in
            try await core.addTime(to: caller.user.id, minutes: minutes, tx: tx, events: events)
        }
    }

    public func checkIns(_ caller: Caller, before: Date?, limit: Int) async throws -> [CheckIn] {
        try await core.read { try await $0.checkIns.list(of: caller.user.id, before: before, limit: min(max(limit, 1), 200)) }
    }
}

extension ServiceCore {
    /// Shared by check-ins, ping answers and responders checking in on someone's behalf.
    /// `callMe` is the person's own ask for a call today (never a responder's: `recordedBy` nil).
    func recordCheckIn(
        userID: UserID, id: CheckInID, clientAt: Date?, source: CheckIn.Source, recordedBy: UserID?, callMe: Bool = false,
        device: String? = nil, tx: StoreTransaction, events: PendingEvents
    ) async throws -> CheckInResult {
        let callMe = callMe && recordedBy == nil
        // One read of the person's row: the person, their escalation state and their timeline
        // head (kept for the append below), locked on PostgreSQL until the commit.
        guard let locked = try await tx.people.lockEscalations([userID]).first else { throw ServiceError.userNotFound }
        var user = locked.user
        let now = self.now
        let checkIn = CheckIn(
            id: id, userID: userID, at: now, clientAt: clientAt, source: source, recordedBy: recordedBy, device: device)
        var checkedIn = user
        checkedIn.lastCheckInAt = now
        let by = try await recordedBy.asyncMap { try await displayName($0, tx: tx) }
        // Only what the check-in changes: a profile edit waiting on the lock keeps its fields.
        let plan = try await escalationPlan(of: checkedIn, current: (locked.deadline, locked.step), tx: tx)
        let detail = CheckedIn(
            id: id, source: source, deadline: Deadline.of(checkedIn), callMe: callMe ? true : nil, device: device)
        // The insert is the idempotency check: a retried id changes nothing. The timeline entry
        // and the row's one UPDATE (with the new timeline head) are written only when it inserts
        // (on PostgreSQL in one statement with it, which also reads what follows).
        let write = try await tx.checkIns.record(
            checkIn, timelineKind: CheckedIn.kind,
            summary: by.map { "\($0) checked in on their behalf" } ?? device.map { "Checked in: \($0)" }
                ?? "Checked in \(source.words)" + (callMe ? "; asked for a call today" : ""),
            detail: TimelineDetailEncoder.json(detail), deadline: plan.deadline, escalationStep: plan.step,
            nextActionAt: plan.nextActionAt)
        guard write.inserted else {
            let existing = try await tx.checkIns.checkIn(id, of: userID) ?? checkIn
            let status = try await statusWithHelp(of: user, openIncidents: try await tx.incidents.openIncidents(of: userID), tx: tx)
            // A retried id changes nothing, a call request included: nobody is told again.
            let repeated = callMe ? try await repeatedCallRequest(of: userID, tx: tx) : nil
            return CheckInResult(checkIn: existing, status: status, duplicate: true, callRequest: repeated)
        }
        user = checkedIn
        events.count(.checkIn(source))
        // Her own word ends a plan she is late back from (she answered) and moves a long plan's
        // next check-in on. A device's call does neither.
        var plansRan = false
        if recordedBy == nil && source != .device && write.hasRunningPlans != false {
            try await checkInOnPlans(of: userID, tx: tx, events: events)
            plansRan = true
        }
        // What the write read still holds unless her plans just moved (they may end alerts).
        let open = write.hasOpenIncidents == false && !plansRan ? [] : try await tx.incidents.openIncidents(of: userID)
        for incident in open where incident.kind == .missedCheckIn {
            try await resolve(
                incident, resolution: recordedBy == nil ? .checkedIn : .checkedInByResponder, by: recordedBy ?? userID,
                user: user, tx: tx, events: events)
        }
        let status = try await publishStatus(
            of: user, openIncidents: open.filter { $0.kind != .missedCheckIn }, responders: write.responderIDs, tx: tx,
            events: events)
        let callRequest = callMe ? try await askForCall(user, source: source, tx: tx, events: events) : nil
        return CheckInResult(checkIn: checkIn, status: status, duplicate: false, callRequest: callRequest)
    }
}

extension ServiceCore {
    func addTime(to userID: UserID, minutes: Int, tx: StoreTransaction, events: PendingEvents) async throws -> CheckInStatus {
        guard let locked = try await tx.people.lockEscalations([userID]).first else { throw ServiceError.userNotFound }
        var user = locked.user
        do { user.addedTime = try AddTimeRule.added(to: user, minutes: minutes, now: now) } catch { throw ServiceError.invalid(error) }
        let plan = try await escalationPlan(of: user, current: (locked.deadline, locked.step), tx: tx)
        try await tx.timeline.append(
            userID, at: now, summary: "Added time: next deadline \(HumanTime.dated(plan.deadline, in: HumanTime.zone(user.timeZone)))",
            TimeAdded(deadline: plan.deadline, minutes: minutes))
        try await tx.people.setAddedTime(
            of: userID, user.addedTime!, deadline: plan.deadline, escalationStep: plan.step, nextActionAt: plan.nextActionAt)
        return try await publishStatus(of: user, tx: tx, events: events)
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
