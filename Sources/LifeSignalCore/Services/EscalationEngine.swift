import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore
import Logging

/// What one pass of the engine did.
public struct EnginePass: Sendable, Hashable {
    public var reminders = 0
    /// Tries of daily calls placed.
    public var calls = 0
    /// Consent calls placed, and requests for daily calls ended unanswered.
    public var consentCalls = 0
    public var lastCalls = 0
    public var incidentsOpened = 0
    public var repeats = 0
    public var claimsExpired = 0
    /// Ladder steps climbed (after the first, told when an incident opens).
    public var steps = 0
    /// Ladders that reached their top with nobody on it: everyone was called.
    public var exhausted = 0
    public var late = 0
    /// Plans' reminders and "you're late" notices; plans' incidents count in `incidentsOpened`.
    public var planNotices = 0

    /// A pass that has done nothing yet.
    public init() {}

    /// Every counter once, with its name in the log line: `total`, `counts` and `merge(_:)` all
    /// read this list, so a counter added to the pass reaches the three.
    static var counters: [(name: String, count: WritableKeyPath<EnginePass, Int>)] {
        [
            ("reminders", \.reminders), ("calls", \.calls), ("consent_calls", \.consentCalls), ("last_calls", \.lastCalls),
            ("incidents", \.incidentsOpened), ("repeats", \.repeats), ("claims_expired", \.claimsExpired),
            ("steps", \.steps), ("exhausted", \.exhausted), ("late", \.late), ("plan_notices", \.planNotices),
        ]
    }

    /// Everything the pass did (`late` qualifies steps counted here, so it is not added).
    public var total: Int {
        Self.counters.reduce(0) { sum, counter in counter.count == \.late ? sum : sum + self[keyPath: counter.count] }
    }

    /// Every count by name, for the log line of a pass that did something.
    public var counts: [(key: String, value: Int)] {
        Self.counters.map { ($0.name, self[keyPath: $0.count]) }
    }
}

/// The heart of LifeSignal: finds due work with indexed queries and takes each step of
/// each person's escalation exactly once.
///
/// Every step runs in one transaction with the notifications and outbox rows it causes,
/// on rows leased to this instance (`FOR NO KEY UPDATE SKIP LOCKED` on PostgreSQL), and is
/// re-checked under the lock, so a crash, a restart or a second engine never repeats it.
/// Steps whose time passed while no engine ran are taken at once and marked late.
public struct EscalationEngine: Sendable {
    let core: ServiceCore
    public let instance: String
    /// People (or incidents) claimed and stepped per transaction.
    public var batchSize = Self.defaultBatchSize
    public static let defaultBatchSize = 500
    public var leaseSeconds: TimeInterval = 60
    /// A step taken more than this after its time is recorded as late.
    public var lateAfter: TimeInterval = 60

    public init(core: ServiceCore, instance: String) {
        self.core = core
        self.instance = instance
    }

    /// Runs until nothing is due; returns what was done.
    @discardableResult
    public func runPass() async throws -> EnginePass {
        let started = ContinuousClock.now
        var pass = EnginePass()
        while true {
            let before = pass.total
            try await processDueUsers(&pass)
            try await processDuePlans(&pass)
            try await processDueIncidents(&pass)
            if pass.total == before { break }
        }
        // Daily calls the outbox has not placed on time: said out loud, once a day.
        // Consent calls for daily calls set up by family.
        let now = core.now
        if try await !core.read({ try await $0.dailyCalls.dueSetups(now: now, limit: 1) }).isEmpty {
            pass.consentCalls += try await core.write { tx, events in try await core.takeConsentSteps(tx: tx, events: events) }
        }
        if try await !core.read({ try await core.stalledDailyCalls(tx: $0) }).isEmpty {
            _ = try await core.write { tx, events in try await core.reportStalledDailyCalls(tx: tx, events: events) }
        }
        let micros = Int((ContinuousClock.now - started) / .microseconds(1))
        core.metrics.escalationPass(seconds: Double(micros) / 1_000_000)
        let beat = EngineHeartbeat(instance: instance, lastPassAt: core.now, lastPassMicros: micros)
        try await core.store.write { try await $0.engine.recordHeartbeat(beat) }
        return pass
    }

    // MARK: - People's deadlines

    private func processDueUsers(_ pass: inout EnginePass) async throws {
        let now = core.now
        let leaseUntil = now.addingTimeInterval(leaseSeconds)
        // The batch is claimed and stepped in one transaction: each person's row is written
        // once, not once for the lease and again for the steps. If it fails, the batch is
        // claimed on its own and everyone is redone one by one, so one bad row cannot hold up
        // everyone else's alerts.
        do {
            let done = try await core.write { tx, events in
                let ids = try await tx.engine.claimDueUsers(now: now, limit: batchSize, owner: instance, leaseUntil: leaseUntil)
                var batch = EnginePass()
                try await takeDueSteps(ids, pass: &batch, tx: tx, events: events)
                return batch
            }
            pass.merge(done)
        } catch {
            core.logger.warning("engine batch failed; retrying one by one", metadata: ["error": "\(error)"])
            let ids = try await core.store.write { tx in
                try await tx.engine.claimDueUsers(now: now, limit: batchSize, owner: instance, leaseUntil: leaseUntil)
            }
            for id in ids {
                do {
                    let done = try await core.write { tx, events in
                        var one = EnginePass()
                        try await takeDueSteps([id], pass: &one, tx: tx, events: events)
                        return one
                    }
                    pass.merge(done)
                } catch {
                    core.logger.error("engine step failed", metadata: ["user": "\(id)", "error": "\(error)"])
                }
            }
        }
    }

    /// Takes every due step of these people's plans, under their row locks.
    ///
    /// The steps are planned person by person, then taken for everyone together — the
    /// reminders and last calls, then the incidents with their first rounds — in a fixed
    /// number of statements whatever the batch size. Each person's timeline keeps their
    /// steps' order. Step keys on notifications and the one-open-incident rule still make a
    /// repeated step a no-op.
    func takeDueSteps(_ ids: [UserID], pass: inout EnginePass, tx: StoreTransaction, events: PendingEvents) async throws {
        let now = core.now
        var notices: [NotificationDraft] = []
        var openings: [IncidentOpening] = []
        // The last call changes the person's status; opening the incident publishes it again,
        // so it is published once, after the steps, unless the incident already did.
        var lastCalled: [User] = []
        var lastCalls: [(user: User, stepKey: StepKey?, lateSince: Date?, deadline: Date)] = []
        var marks: [EscalationUpdate] = []
        // Tries of daily calls that did not ring on time, and why.
        var unplacedCalls: [(user: User, at: Date, why: ServiceCore.DailyCallFailure)] = []
        for state in try await tx.people.lockEscalations(ids) {
            let user = state.user
            guard let next = state.nextActionAt, next <= now else { continue }
            let progress = EscalationProgress(user: user, deadline: state.deadline, stepsDone: state.step)
            let steps = EscalationPlan.due(state: progress, now: now, lateAfter: lateAfter)
            for due in steps {
                let (current, isLate) = (due.step, due.isLate)
                if case .call = current.kind, due.isPassedOver {
                    // A try whose time went by while no engine ran: it never rang, and that is
                    // said out loud.
                    unplacedCalls.append((user, current.at, .late))
                    continue
                }
                guard !due.isPassedOver else { continue }
                switch current.kind {
                case let .call(attempt):
                    guard let call = user.schedule.dailyCall else { break }
                    if DailyCallRule.isNightCall(now: now, call, attempt: attempt) {
                        unplacedCalls.append((user, current.at, .night))
                        break
                    }
                    // Rung late (an engine outage): it still rings, and responders hear it was late.
                    if now.timeIntervalSince(current.at) > ServiceCore.dailyCallPlacedWithin {
                        unplacedCalls.append((user, current.at, .late))
                    }
                    notices.append(core.dailyCallDraft(user, call: call, attempt: attempt, stepKey: due.key))
                    events.count(.stepTaken(step: "daily_call", lag: now.timeIntervalSince(current.at)))
                    pass.calls += 1
                    if isLate { pass.late += 1 }
                case .reminder:
                    // A reminder sent late (no engine ran at its time) says so, and counts the
                    // time really left, not the lead it was planned with; one held by quiet hours
                    // counts from when it was moved to.
                    let left = max(0, Int(state.deadline.timeIntervalSince(isLate ? now : current.at)))
                    let (dueAt, deadline) = (current.at, state.deadline)
                    notices.append(
                        NotificationDraft(recipient: user.id, kind: .reminder, subject: user.id, stepKey: due.key, knownRecipient: user) {
                            w in
                            let body = w(
                                "reminder.body", ["duration": w.words.duration(seconds: left), "when": w.time(deadline, now: now)])
                            return (
                                w(isLate ? "reminder.title.late" : "reminder.title"),
                                isLate ? Self.lateNote(dueAt, w, now: now) + " " + body : body
                            )
                        })
                    events.count(.stepTaken(step: "reminder", lag: now.timeIntervalSince(current.at)))
                    pass.reminders += 1
                    if isLate { pass.late += 1 }
                case .lastCall:
                    lastCalls.append((user, due.key, isLate ? current.at : nil, state.deadline))
                    lastCalled.append(user)
                    events.count(.stepTaken(step: "last_call", lag: now.timeIntervalSince(current.at)))
                    pass.lastCalls += 1
                    if isLate { pass.late += 1 }
                case .openIncident:
                    // Due at the deadline she missed (the step itself comes after the grace period).
                    openings.append(IncidentOpening(kind: .missedCheckIn, user: user, dueAt: state.deadline, late: isLate))
                    events.count(.stepTaken(step: "open_incident", lag: now.timeIntervalSince(current.at)))
                }
            }
            let done = EscalationPlan.stepsDone(after: steps, from: state.step)
            marks.append(
                EscalationUpdate(id: user.id, step: done, nextActionAt: EscalationPlan.nextActionAt(for: user, stepsDone: done, now: now)))
        }
        // A last call names who will be alerted, and says so when nobody would be.
        // Only the first step of her ladder is alerted then: the last call names those people.
        let missing = lastCalls.map(\.user.id)
        let toldIfMissed = lastCalls.isEmpty ? [:] : try await tx.links.responders(of: missing)
        let ladders = lastCalls.isEmpty ? [:] : try await tx.ladders.ladders(of: missing)
        let keyHolders = lastCalls.isEmpty ? [:] : try await tx.links.keyHolders(of: missing)
        for (user, stepKey, lateSince, deadline) in lastCalls {
            let responders = ServiceCore.keyHoldersFirst(toldIfMissed[user.id] ?? [], keyHolders: keyHolders[user.id] ?? [])
            let first = LadderRule.firstStep(ladders[user.id] ?? .default, responders: responders.map(\.id))
            let names = responders.filter { first.contains($0.id) }.map { ServiceCore.displayName(of: $0) }
            // Minutes really left before the alert: fewer than the grace when this is late.
            let alertAt = deadline.addingTimeInterval(Double(user.graceMinutes) * 60)
            let minutesLeft = max(0, Int((alertAt.timeIntervalSince(now) / 60).rounded(.up)))
            notices.append(
                NotificationDraft(recipient: user.id, kind: .nonResponsive, subject: user.id, stepKey: stepKey, knownRecipient: user) {
                    w in
                    let body = Self.lastCallBody(responders: names, graceMinutes: minutesLeft, w)
                    return (
                        w(lateSince == nil ? "missed.title" : "missed.title.late"),
                        lateSince.map { Self.lateNote($0, w, now: now) + " " + body } ?? body
                    )
                })
        }
        try await core.notify(notices, tx: tx, events: events)
        for (user, at, why) in unplacedCalls {
            try await core.tellDailyCallFailed(user, callAt: at, why: why, tx: tx, events: events)
        }
        let opened = try await core.openIncidents(openings, tx: tx, events: events)
        var published = Set<UserID>()
        for (opening, incident) in zip(openings, opened) where incident != nil {
            published.insert(opening.user.id)
            pass.incidentsOpened += 1
            if opening.late { pass.late += 1 }
        }
        let unpublished = lastCalled.filter { !published.contains($0.id) }
        if !unpublished.isEmpty {
            let responders = try await tx.links.responders(of: unpublished.map(\.id))
            try await core.publishStatus(
                of: unpublished, responders: responders.mapValues { $0.map(\.id) }, tx: tx, events: events)
        }
        try await tx.people.setEscalations(marks)
    }

    /// "This was due at 08:30; our service could not send it then. ": the head of a message
    /// sent after its time because no engine ran (a restart, an outage).
    static func lateNote(_ due: Date, _ w: Reader, now: Date) -> String {
        w("message.lateNote", ["when": w.time(due, now: now)])
    }

    /// The last call's words: who is alerted and when, true for someone with no responders.
    static func lastCallBody(responders: [String], graceMinutes: Int, _ w: Reader) -> String {
        if responders.isEmpty { return w("missed.body.nobody") }
        let names = w.words.list(responders)
        return graceMinutes > 0
            ? w("missed.body.soon", ["names": names], count: graceMinutes)
            : w("missed.body.now", ["names": names], count: responders.count)
    }

    // MARK: - Plans

    /// Plans' due steps, a batch per transaction under their row locks (a second engine skips
    /// the rows this one holds; a crash rolls the batch back whole, and step keys make a redo
    /// tell nobody twice).
    private func processDuePlans(_ pass: inout EnginePass) async throws {
        // A read first: with no plan due (nearly always), the pass takes no writer for plans.
        let now = core.now
        guard try await core.read({ try await $0.plans.hasDuePlans(now: now) }) else { return }
        pass.merge(
            try await core.write { tx, events in
                try await core.takeDuePlanSteps(limit: batchSize, late: lateAfter, tx: tx, events: events)
            })
    }

    // MARK: - Open incidents

    private func processDueIncidents(_ pass: inout EnginePass) async throws {
        let now = core.now
        let ids = try await core.store.write { tx in
            try await tx.engine.claimDueIncidents(
                now: now, limit: batchSize, owner: instance, leaseUntil: now.addingTimeInterval(leaseSeconds))
        }
        for id in ids {
            do {
                let done = try await core.write { tx, events in
                    var one = EnginePass()
                    try await advanceIncident(id, pass: &one, tx: tx, events: events)
                    return one
                }
                pass.merge(done)
            } catch {
                core.logger.error("incident step failed", metadata: ["incident": "\(id)", "error": "\(error)"])
            }
        }
    }

    /// A lapsed acknowledgement releases the claim and the ladder resumes at its next step at
    /// once; otherwise the ladder climbs to the step due now (one step, marked late, after
    /// downtime), the next repeat goes out, or — nobody on it after the last step — everyone
    /// is called.
    func advanceIncident(_ id: IncidentID, pass: inout EnginePass, tx: StoreTransaction, events: PendingEvents) async throws {
        let now = core.now
        guard var incident = try await tx.incidents.lock(id), incident.isOpen, let user = try await tx.people.user(incident.userID)
        else {
            return
        }
        let current = try await tx.links.responders(of: user.id)
        let policy = core.configuration.escalation
        var ladder =
            incident.ladder ?? LadderRule.legacy(incident, responders: current.map(\.id), exhaustAfter: policy.exhaustAfter)
        if let expires = incident.claimExpiresAt, expires <= now {
            let holderID = incident.acknowledgedBy
            let holder = try await holderID.asyncMap { try await core.displayName($0, tx: tx) } ?? "A responder"
            incident.acknowledgedBy = nil
            incident.acknowledgedAt = nil
            incident.claimExpiresAt = nil
            ladder = LadderRule.resuming(ladder, now: now, exhaustAfter: policy.exhaustAfter)
            try await tx.timeline.append(
                user.id, at: now, summary: "\(holder)'s claim expired; alerting resumes", ClaimExpired(incident: id))
            events.count(.stepTaken(step: "claim_expired", lag: now.timeIntervalSince(expires)))
            var notices = [core.claimLapsedNotice(for: incident, holder: holder, at: expires, zone: HumanTime.zone(user.timeZone))]
            if let holderID { notices.append(core.claimLapsedToHolderNotice(for: incident, user: user, holder: holderID, at: expires)) }
            try await core.notify(notices, tx: tx, events: events)
            pass.claimsExpired += 1
        }
        guard incident.acknowledgedBy == nil else {
            incident.ladder = ladder
            try await tx.incidents.update(incident)
            return
        }
        let reachable = Set(current.map(\.id))
        let before = ladder.told
        ladder.told = LadderRule.told(after: ladder, now: now)
        ladder.told = LadderRule.skippingEmpty(ladder, reachable: reachable.contains)
        let newlyTold = ladder.steps[before..<ladder.told].flatMap(\.responders).filter(reachable.contains)
        let stepLate = ladder.told > before && now.timeIntervalSince(ladder.steps[ladder.told - 1].at) > lateAfter
        // The last step just told: its people get the whole wait to answer before everyone is called.
        if ladder.told > before && ladder.told == ladder.steps.count { ladder.exhaustsAt = now.addingTimeInterval(policy.exhaustAfter) }
        let repeatDue = ladder.nextRepeatAt.map { $0 <= now } ?? false
        let exhaustDue = LadderRule.exhaustAt(ladder).map { $0 <= now } ?? false
        incident.ladder = ladder
        if exhaustDue {
            ladder.exhaustedAt = now
            incident.ladder = ladder
            try await core.exhaust(incident, user: user, responders: current, tx: tx, events: events)
            pass.exhausted += 1
        }
        if ladder.told > before || (repeatDue && !exhaustDue) {
            let due = ladder.told > before ? ladder.steps[ladder.told - 1].at : ladder.nextRepeatAt ?? now
            incident = try await core.notifyResponders(
                of: incident, user: user, newlyTold: newlyTold, lateSince: stepLate ? due : nil, tx: tx, events: events)
            events.count(.stepTaken(step: ladder.told > before ? "ladder_step" : "repeat", lag: now.timeIntervalSince(due)))
            if ladder.told > before { pass.steps += 1 } else { pass.repeats += 1 }
            if stepLate { pass.late += 1 }
        }
        if ladder.told > before || repeatDue || exhaustDue {
            ladder.nextRepeatAt = policy.nextNotification(kind: incident.kind, count: incident.notifyCount, lastAt: now)
        }
        incident.ladder = ladder
        incident.nextNotifyAt = LadderRule.nextActionAt(ladder)
        try await tx.incidents.update(incident)
    }
}

extension EnginePass {
    mutating func merge(_ other: EnginePass) {
        for (_, count) in Self.counters { self[keyPath: count] += other[keyPath: count] }
    }
}
