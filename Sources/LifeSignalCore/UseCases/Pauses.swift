import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Days off (``Pause``): "pause now until Sunday 18:00", or planned ahead ("away from 1 to 14
/// August"). Up to ``Pause/upcomingLimit`` at once, each at most ``Pause/longest``, never
/// overlapping; every one ends by itself. Her responders are told each change and see who set
/// the pause that holds.
public struct Pauses: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Pauses {
    /// Her pauses that have not ended, earliest first.
    public func list(_ caller: Caller) async throws -> [Pause] {
        let now = core.now
        return try await core.read { tx in
            guard let user = try await tx.people.user(caller.user.id) else { throw ServiceError.unauthorized }
            return user.pauses.filter { $0.until > now }
        }
    }

    /// Adds a pause from `from` (now when nil) until `until`.
    public func add(_ caller: Caller, from: Date?, until: Date, openIncident: OpenIncidentChoice?) async throws -> Pause {
        let now = core.now
        try validated { try Validation.pause(from: from ?? now, until: until, now: now) }
        // A start a moment ago (a form filled in slowly) starts now.
        let from = max(from ?? now, now)
        return try await core.write { tx, events in
            guard let locked = try await tx.people.lockEscalations([caller.user.id]).first else { throw ServiceError.unauthorized }
            let pause = Pause(
                id: core.newID(), from: from, until: until, setBy: locked.user.id,
                setByName: ServiceCore.displayName(of: locked.user), setAt: now)
            try await core.changePauses(
                of: locked, adding: pause, replacing: nil, openIncident: openIncident, setter: locked.user, tx: tx, events: events)
            return pause
        }
    }

    /// Ends a pause now when it holds, or takes it away when it has not begun. Not found when
    /// it is not hers or has ended.
    public func remove(_ caller: Caller, pause id: PauseID) async throws -> CheckInStatus {
        try await core.write { tx, events in
            guard let locked = try await tx.people.lockEscalations([caller.user.id]).first else { throw ServiceError.unauthorized }
            guard let pause = locked.user.pauses.first(where: { $0.id == id && $0.until > core.now }) else {
                throw ServiceError(.notFound, code: .pauseNotFound, Said("error.pauseNotFound"))
            }
            let user = try await core.endPause(pause, of: locked, setter: locked.user, tx: tx, events: events)
            return try await core.publishStatus(of: user, tx: tx, events: events)
        }
    }
}

extension ServiceCore {
    static let pauseChangeRefusal = Said("error.tooManyPauseChanges")

    /// "Pause now until `until`" by `setter` (she herself, or the responder who marks her away):
    /// the pause holding now gets the new end, or one starts now. `nil` ends the one that holds.
    func pauseNow(
        _ locked: EscalationState, until: Date?, openIncident: OpenIncidentChoice?, setter: User, tell: Bool = true,
        tx: StoreTransaction, events: PendingEvents
    ) async throws -> User {
        let holding = PauseRule.current(at: now, locked.user.pauses)
        guard let until else {
            guard let holding else { return locked.user }
            return try await endPause(holding, of: locked, setter: setter, tell: tell, tx: tx, events: events)
        }
        var pause = Pause(
            id: newID(), from: now, until: until, setBy: setter.id, setByName: Self.displayName(of: setter), setAt: now)
        if let holding {
            pause.id = holding.id
            pause.from = holding.from
        }
        return try await changePauses(
            of: locked, adding: pause, replacing: holding?.id, openIncident: openIncident, setter: setter, tell: tell, tx: tx,
            events: events)
    }

    /// Stores `pause` (in place of `replacing`), refusing one that overlaps another or passes the
    /// limit; records it on her timeline and tells her responders (all but the setter) unless
    /// the caller tells them its own way (`tell: false`).
    @discardableResult
    func changePauses(
        of locked: EscalationState, adding pause: Pause, replacing: PauseID?, openIncident: OpenIncidentChoice?,
        setter: User, tell: Bool = true, tx: StoreTransaction, events: PendingEvents
    ) async throws -> User {
        var user = locked.user
        let others = user.pauses.filter { $0.id != replacing }
        switch PauseRule.refusal(adding: pause.from, until: pause.until, to: others, now: now) {
        case .overlaps(let clash):
            let zone = HumanTime.zone(user.timeZone)
            throw ServiceError(
                .conflict, code: .pauseOverlaps,
                Said(
                    "error.pauseOverlaps", ["from": HumanTime.dated(clash.from, in: zone), "until": HumanTime.dated(clash.until, in: zone)])
            )
        case .tooMany:
            throw ServiceError(.conflict, code: .tooManyPauses, Said("error.tooManyPauses", ["limit": String(Pause.upcomingLimit)]))
        case nil: break
        }
        try await enforceLimit(
            configuration.limits.pauseChanges, refusal: .tooManyPauseChanges, sender: setter.id, recipient: nil,
            message: Self.pauseChangeRefusal, tx: tx)
        let startsNow = pause.from <= now
        if startsNow {
            let open = try await tx.incidents.openIncidents(of: user.id)
            // An SOS is ended only by "I'm safe": a pause would silence it without a word.
            if open.contains(where: { $0.kind == .manualAlert }) {
                throw ServiceError(.conflict, code: .alertActive, Said("error.pauseDuringSOS"))
            }
            // Her own pause while nobody has heard from her must say what becomes of the alert
            // (a late plan's alert is the plan's: a pause never touches plans). A responder
            // marking her away leaves it open, as it is theirs to handle.
            let missed = open.filter { $0.kind == .missedCheckIn }
            if !missed.isEmpty, setter.id == user.id {
                guard let openIncident else {
                    throw ServiceError(.conflict, code: .incidentOpen, Said("error.pauseWhileIncidentOpen"))
                }
                // Pausing from her own account says she is there: the alert ends as her
                // check-in, and everyone who was told hears the all-clear.
                if openIncident == .resolve {
                    for incident in missed {
                        try await resolve(incident, resolution: .checkedIn, by: user.id, user: user, tx: tx, events: events)
                    }
                }
            }
        }
        user.pauses = PauseRule.kept(others + [pause], lastCheckIn: user.lastCheckInAt ?? user.createdAt, now: now)
        try await save(user, escalation: (locked.deadline, locked.step), tx: tx)
        guard tell else { return user }
        let zone = HumanTime.zone(user.timeZone)
        if startsNow {
            try await tx.timeline.append(
                user.id, at: now, summary: "Paused until \(HumanTime.dated(pause.until, in: zone))",
                Paused(until: pause.until))
        } else {
            try await tx.timeline.append(
                user.id, at: now,
                summary: "Pause planned from \(HumanTime.dated(pause.from, in: zone)) until \(HumanTime.dated(pause.until, in: zone))",
                PausePlanned(from: pause.from, until: pause.until))
        }
        let name = Self.displayName(of: user)
        let (from, until, now) = (pause.from, pause.until, now)
        try await notify(
            try await tx.links.responders(of: user.id).filter { $0.id != setter.id }.map { responder in
                NotificationDraft(recipient: responder.id, kind: .pauseChanged, subject: user.id, knownRecipient: responder) { w in
                    let when = w.time(until, subject: zone, now: now)
                    guard !startsNow else {
                        return (w("pause.paused.title", ["name": name]), w("pause.paused.body", ["name": name, "when": when]))
                    }
                    return (
                        w("pause.planned.title", ["name": name]),
                        w("pause.planned.body", ["name": name, "from": w.time(from, subject: zone, now: now), "when": when])
                    )
                }
            }, tx: tx, events: events)
        return user
    }

    /// Ends `pause` now when it holds (her period starts again now), or takes it away when it
    /// has not begun; her responders (all but `setter`) are told.
    func endPause(
        _ pause: Pause, of locked: EscalationState, setter: User, tell: Bool = true, tx: StoreTransaction,
        events: PendingEvents
    ) async throws -> User {
        try await enforceLimit(
            configuration.limits.pauseChanges, refusal: .tooManyPauseChanges, sender: setter.id, recipient: nil,
            message: Self.pauseChangeRefusal, tx: tx)
        var user = locked.user
        let holds = pause.covers(now)
        var pauses = user.pauses.filter { $0.id != pause.id }
        if holds {
            var ended = pause
            ended.until = now
            pauses.append(ended)
        }
        user.pauses = PauseRule.kept(pauses, lastCheckIn: user.lastCheckInAt ?? user.createdAt, now: now)
        try await save(user, escalation: (locked.deadline, locked.step), tx: tx)
        guard tell else { return user }
        let zone = HumanTime.zone(user.timeZone)
        if holds {
            try await tx.timeline.append(user.id, at: now, summary: "Pause ended", Resumed())
        } else {
            try await tx.timeline.append(
                user.id, at: now, summary: "Planned pause from \(HumanTime.dated(pause.from, in: zone)) called off",
                PauseCalledOff(from: pause.from, until: pause.until))
        }
        let name = Self.displayName(of: user)
        let (from, now) = (pause.from, now)
        try await notify(
            try await tx.links.responders(of: user.id).filter { $0.id != setter.id }.map { responder in
                NotificationDraft(recipient: responder.id, kind: .pauseChanged, subject: user.id, knownRecipient: responder) { w in
                    guard !holds else {
                        return (w("pause.resumed.title", ["name": name]), w("pause.resumed.body", ["name": name]))
                    }
                    return (
                        w("pause.calledOff.title", ["name": name]),
                        w("pause.calledOff.body", ["name": name, "from": w.time(from, subject: zone, now: now)])
                    )
                }
            }, tx: tx, events: events)
        return user
    }
}
