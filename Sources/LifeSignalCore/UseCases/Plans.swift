import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Plans: "check on me by 18:00" (``Plan``). She starts one with a headline, a time and sealed
/// details; extends it or says she is back from anywhere (the web, the app, the CLI, a text).
/// If she is not back in time the engine tells her, then opens an incident of its own kind
/// that climbs her ladder; only then may a responder open the details.
public struct Plans: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

/// What a plan is started with (`POST /v1/me/plans`).
public struct PlanRequest: Sendable, Hashable {
    public var title: String
    public var dueAt: Date
    public var details: String?
    public var instruction: String?
    public var instructionAt: Date?
    public var tellResponders: Bool
    /// A long plan: she checks in at least every this many hours (12–72) until it ends.
    public var checkInEveryHours: Int?

    public init(
        title: String, dueAt: Date, details: String? = nil, instruction: String? = nil, instructionAt: Date? = nil,
        tellResponders: Bool = true, checkInEveryHours: Int? = nil
    ) {
        self.checkInEveryHours = checkInEveryHours
        self.title = title
        self.dueAt = dueAt
        self.details = details
        self.instruction = instruction
        self.instructionAt = instructionAt
        self.tellResponders = tellResponders
    }
}

extension Plans {
    /// Starts a plan. At most ``Plan/activeLimit`` run at once (counted under her lock, so two
    /// racing starts cannot make a fourth). Her responders are told the headline and time —
    /// never the details — unless she chose to tell nobody unless she is late.
    public func start(_ caller: Caller, _ request: PlanRequest) async throws -> Plan {
        let now = core.now
        let draft: PlanRule.Draft
        do {
            draft = try PlanRule.draft(
                title: request.title, dueAt: request.dueAt, details: request.details, instruction: request.instruction,
                instructionAt: request.instructionAt, checkInEveryHours: request.checkInEveryHours, now: now)
        } catch { throw ServiceError.invalid(error) }
        var started = Plan(
            id: core.newID(), title: draft.title, startedAt: now, dueAt: draft.dueAt, details: draft.details,
            instruction: draft.instruction, instructionAt: draft.instructionAt, tellResponders: request.tellResponders,
            checkInEveryHours: draft.checkInEveryHours)
        started.checkInBy = PlanRule.checkInBy(after: now, plan: started)
        let plan = started
        return try await core.write { tx, events in
            guard let user = try await tx.people.lockEscalations([caller.user.id]).first?.user else { throw ServiceError.unauthorized }
            try await core.enforceLimit(
                core.configuration.limits.planStarts, refusal: .tooManyPlanStarts, sender: user.id, recipient: nil,
                message: Said("error.tooManyPlanStarts"), tx: tx)
            guard try await tx.plans.runningPlans(of: user.id).count < Plan.activeLimit else {
                throw ServiceError(.conflict, code: .tooManyPlans, Said("error.tooManyPlans", ["limit": String(Plan.activeLimit)]))
            }
            let steps = PlanRule.startingSteps(plan: plan, now: now)
            try await tx.plans.insert(
                plan, of: user.id, step: steps,
                nextActionAt: PlanRule.nextActionAt(plan: plan, stepsDone: steps, graceMinutes: user.graceMinutes))
            try await tx.timeline.append(
                user.id, at: now, summary: "Plan started: \(plan.title)", PlanStarted(plan: plan.id, title: plan.title, due: plan.dueAt))
            if plan.tellResponders {
                let name = ServiceCore.displayName(of: user)
                let (title, due, zone) = (plan.title, plan.dueAt, HumanTime.zone(user.timeZone))
                let drafts = try await tx.links.responders(of: user.id).map { responder in
                    NotificationDraft(
                        recipient: responder.id, kind: .planStarted, subject: user.id,
                        stepKey: .planStarted(plan.id, responder: responder.id), knownRecipient: responder
                    ) { w in
                        (
                            w("plan.started.title", ["name": name, "title": title]),
                            w("plan.started.body", ["name": name, "title": title, "when": w.time(due, subject: zone, now: now)])
                        )
                    }
                }
                try await core.notify(drafts, tx: tx, events: events)
            }
            return plan
        }
    }

    /// Her plans: running ones first (with their details: they are hers), then ended ones.
    public func list(_ caller: Caller) async throws -> [Plan] {
        try await core.read { try await $0.plans.list(of: caller.user.id) }
    }

    /// The running plans of someone the caller watches over, as she told them: the plans she
    /// chose to tell her responders about, and any she is late back from (its alert is open).
    /// Headlines and times only. Not found to anyone who is not her responder.
    public func headlines(_ caller: Caller, of userID: UserID) async throws -> [PlanHeadline] {
        try await core.read { tx in
            guard try await tx.links.link(userID: caller.user.id, contactID: userID)?.roles.isDependent == true else {
                throw ServiceError.userNotFound
            }
            return try await tx.plans.runningPlans(of: userID).filter { $0.tellResponders || $0.state == .overdue }.map(\.headline)
        }
    }

    /// Moves a running plan's due time by `minutes`, or to `until`; told to nobody, unless
    /// it was overdue: then its alert ends ("she answered") and the plan runs on.
    public func extend(_ caller: Caller, plan id: PlanID, minutes: Int? = nil, until: Date? = nil) async throws -> Plan {
        try await core.write { tx, events in
            try await core.extendPlan(id, of: caller.user.id, minutes: minutes, until: until, tx: tx, events: events)
        }
    }

    /// "I'm back": ends the plan, counts as a check-in for her rhythm too, and ends its alert
    /// if one is open. Her responders, if told of the plan, are told she is back.
    public func done(_ caller: Caller, plan id: PlanID, source: CheckIn.Source) async throws -> Plan {
        try await core.write { tx, events in
            try await core.endPlan(id, of: caller.user.id, state: .done, source: source, tx: tx, events: events)
        }
    }

    /// Calls a plan off: its details are erased at once. An open alert about it ends.
    public func cancel(_ caller: Caller, plan id: PlanID) async throws -> Plan {
        try await core.write { tx, events in
            try await core.endPlan(id, of: caller.user.id, state: .cancelled, source: nil, tx: tx, events: events)
        }
    }
}

extension ServiceCore {
    static let planNotFound = ServiceError(.notFound, code: .planNotFound, Said("error.planNotFound"))

    /// A running plan of hers, locked; not found when it is not hers, a conflict once it ended.
    func runningPlan(_ id: PlanID, of userID: UserID, tx: StoreTransaction) async throws -> PlanState {
        guard let state = try await tx.plans.lockPlan(id, of: userID) else { throw Self.planNotFound }
        guard state.plan.isRunning else { throw ServiceError(.conflict, code: .planEnded, Said("error.planEnded")) }
        return state
    }

    func extendPlan(
        _ id: PlanID, of userID: UserID, minutes: Int?, until: Date?, tx: StoreTransaction, events: PendingEvents
    ) async throws -> Plan {
        guard let user = try await tx.people.lockEscalations([userID]).first?.user else { throw ServiceError.unauthorized }
        let state = try await runningPlan(id, of: userID, tx: tx)
        var plan = state.plan
        do throws(ValidationError) {
            if let until {
                guard until > plan.dueAt || plan.state == .overdue else {
                    throw ValidationError(field: "until", key: "validation.plan.untilEarlier")
                }
                try PlanRule.checkDue(until, startedAt: plan.startedAt, now: now)
                plan.dueAt = until
            } else {
                plan.dueAt = try PlanRule.extended(plan, byMinutes: minutes ?? 60, now: now)
            }
        } catch { throw ServiceError.invalid(error) }
        let wasOverdue = plan.state == .overdue
        plan.state = .active
        plan.extensions += 1
        // Her own word: a long plan's next check-in counts from now (and stays before the due time).
        plan.checkInBy = PlanRule.checkInBy(after: now, plan: plan)
        let steps = PlanRule.startingSteps(plan: plan, now: now)
        try await tx.plans.update(
            plan, step: steps, nextActionAt: PlanRule.nextActionAt(plan: plan, stepsDone: steps, graceMinutes: user.graceMinutes))
        try await tx.timeline.append(
            userID, at: now, summary: "Plan extended: \(plan.title)", PlanExtended(plan: plan.id, due: plan.dueAt))
        if wasOverdue { try await resolvePlanIncident(plan, user: user, tx: tx, events: events) }
        return plan
    }

    /// Ends a running plan as done ("I'm back", a check-in too) or cancelled (details erased).
    func endPlan(
        _ id: PlanID, of userID: UserID, state: Plan.State, source: CheckIn.Source?, tx: StoreTransaction, events: PendingEvents
    ) async throws -> Plan {
        guard let user = try await tx.people.lockEscalations([userID]).first?.user else { throw ServiceError.unauthorized }
        var plan = try await runningPlan(id, of: userID, tx: tx).plan
        let wasOverdue = plan.state == .overdue
        plan.state = state
        plan.endedAt = now
        if state == .cancelled { plan.details = nil }
        try await tx.plans.update(plan, step: PlanRule.Step.allCases.count, nextActionAt: nil)
        try await tx.timeline.append(
            userID, at: now, summary: state == .done ? "Back from: \(plan.title)" : "Plan called off: \(plan.title)",
            PlanEnded(plan: plan.id, state: state))
        if wasOverdue { try await resolvePlanIncident(plan, user: user, tx: tx, events: events) }
        if let source {
            _ = try await recordCheckIn(
                userID: userID, id: newID(), clientAt: nil, source: source, recordedBy: nil, tx: tx, events: events)
        }
        // Those told it started hear it ended; an alert's all-clear already told the others.
        if plan.tellResponders && !wasOverdue {
            let name = Self.displayName(of: user)
            let (title, done) = (plan.title, state == .done)
            let drafts = try await tx.links.responders(of: userID).map { responder in
                NotificationDraft(
                    recipient: responder.id, kind: .planEnded, subject: userID,
                    stepKey: .plan(plan.id, dueAt: plan.dueAt, step: "ended:\(responder)"), knownRecipient: responder
                ) { w in
                    done
                        ? (w("plan.back.title", ["name": name, "title": title]), w("plan.back.body", ["name": name, "title": title]))
                        : (
                            w("plan.calledOff.title", ["name": name, "title": title]),
                            w("plan.calledOff.body", ["name": name, "title": title])
                        )
                }
            }
            try await notify(drafts, tx: tx, events: events)
        }
        try await publishStatus(of: user, tx: tx, events: events)
        return plan
    }

    /// Her own check-in and her running plans: a plan she is late back from ends (she
    /// answered); a long plan's next check-in counts from now, and an alert about a check-in
    /// it asked for ends, the plan running on.
    func checkInOnPlans(of userID: UserID, tx: StoreTransaction, events: PendingEvents) async throws {
        let running = try await tx.plans.runningPlans(of: userID)
        guard !running.isEmpty, let user = try await tx.people.lockEscalations([userID]).first?.user else { return }
        for plan in running {
            if plan.state == .overdue && plan.checkInBy == nil {
                _ = try await endPlan(plan.id, of: userID, state: .done, source: nil, tx: tx, events: events)
                continue
            }
            guard plan.checkInEveryHours != nil, var locked = try await tx.plans.lockPlan(plan.id, of: userID)?.plan, locked.isRunning
            else { continue }
            let wasOverdue = locked.state == .overdue
            locked.state = .active
            locked.checkInBy = PlanRule.checkInBy(after: now, plan: locked)
            let steps = PlanRule.startingSteps(plan: locked, now: now)
            try await tx.plans.update(
                locked, step: steps,
                nextActionAt: PlanRule.nextActionAt(plan: locked, stepsDone: steps, graceMinutes: user.graceMinutes))
            if wasOverdue { try await resolvePlanIncident(locked, user: user, tx: tx, events: events) }
        }
    }

    /// Ends the open alert about a plan she answered (extended, back, or called off).
    func resolvePlanIncident(_ plan: Plan, user: User, tx: StoreTransaction, events: PendingEvents) async throws {
        for incident in try await tx.incidents.openIncidents(of: user.id) where incident.planID == plan.id {
            try await resolve(incident, resolution: .checkedIn, by: user.id, user: user, tx: tx, events: events)
        }
        try await publishStatus(of: user, tx: tx, events: events)
    }

    /// A responder resolved a plan's alert (they found her): the plan ends as done.
    func endPlanAfterAlert(_ incident: Incident, tx: StoreTransaction) async throws {
        guard let planID = incident.planID, var state = try await tx.plans.lockPlan(planID, of: incident.userID),
            state.plan.state == .overdue
        else { return }
        state.plan.state = .done
        state.plan.endedAt = now
        try await tx.plans.update(state.plan, step: PlanRule.Step.allCases.count, nextActionAt: nil)
    }

    /// Takes the due steps of up to `limit` plans, each under its row lock, in one transaction:
    /// reminders and "you're late" to her, then the incidents. Step keys make a retried step a no-op.
    /// What it did counts in the pass as `planNotices`, `incidentsOpened` and, for a step taken
    /// more than `lateAfter` after its time, `late`, as the engine's other steps count.
    func takeDuePlanSteps(
        limit: Int, late lateAfter: TimeInterval, tx: StoreTransaction, events: PendingEvents
    ) async throws -> EnginePass {
        let now = self.now
        var pass = EnginePass()
        let due = try await tx.plans.lockDuePlans(now: now, limit: limit)
        guard !due.isEmpty else { return pass }
        let people = try await tx.people.users(Array(Set(due.map(\.userID))))
        var drafts: [NotificationDraft] = []
        var openings: [IncidentOpening] = []
        let ladders = try await tx.ladders.ladders(of: Array(people.keys))
        let responders = try await tx.links.responders(of: Array(people.keys))
        let keyHolders = try await tx.links.keyHolders(of: Array(people.keys))
        for state in due {
            guard let user = people[state.userID] else { continue }
            var plan = state.plan
            let (take, done) = PlanRule.due(plan: plan, stepsDone: state.step, graceMinutes: user.graceMinutes, now: now)
            // A long plan's check-in is told as one ("Check in soon"), its due time as being back.
            let (title, dueAt, isCheckIn) = (plan.title, plan.stepDue, plan.checkInBy != nil)
            for step in take {
                let stepAt = PlanRule.at(step, plan: plan, graceMinutes: user.graceMinutes)
                let stepLate = now.timeIntervalSince(stepAt) > lateAfter
                events.count(.stepTaken(step: "plan_\(step)", lag: now.timeIntervalSince(stepAt)))
                switch step {
                case .reminder:
                    drafts.append(
                        NotificationDraft(
                            recipient: user.id, kind: .planReminder, subject: user.id,
                            stepKey: .plan(plan.id, dueAt: dueAt, step: "reminder"), knownRecipient: user
                        ) { w in
                            isCheckIn
                                ? (
                                    w("plan.checkIn.reminder.title", ["title": title]),
                                    w("plan.checkIn.reminder.body", ["title": title, "when": w.time(dueAt, now: now)])
                                )
                                : (
                                    w("plan.reminder.title", ["title": title]),
                                    w("plan.reminder.body", ["title": title, "when": w.time(dueAt, now: now)])
                                )
                        })
                    pass.planNotices += 1
                    if stepLate { pass.late += 1 }
                case .late:
                    let ordered = Self.keyHoldersFirst(responders[user.id] ?? [], keyHolders: keyHolders[user.id] ?? [])
                    let first = LadderRule.firstStep(ladders[user.id] ?? .default, responders: ordered.map(\.id))
                    let names = ordered.filter { first.contains($0.id) }.map { Self.displayName(of: $0) }
                    let grace = user.graceMinutes
                    drafts.append(
                        NotificationDraft(
                            recipient: user.id, kind: .planLate, subject: user.id,
                            stepKey: .plan(plan.id, dueAt: dueAt, step: "late"), knownRecipient: user
                        ) { w in
                            (
                                w(isCheckIn ? "plan.checkIn.late.title" : "plan.late.title", ["title": title]),
                                EscalationEngine.lastCallBody(responders: names, graceMinutes: grace, w)
                            )
                        })
                    pass.planNotices += 1
                    if stepLate { pass.late += 1 }
                case .overdue:
                    plan.state = .overdue
                    openings.append(
                        IncidentOpening(
                            kind: .planOverdue, user: user, dueAt: dueAt, late: stepLate,
                            planID: plan.id))
                }
            }
            try await tx.plans.update(
                plan, step: done, nextActionAt: PlanRule.nextActionAt(plan: plan, stepsDone: done, graceMinutes: user.graceMinutes))
        }
        try await notify(drafts, tx: tx, events: events)
        let opened = try await openIncidents(openings, tx: tx, events: events)
        for (opening, incident) in zip(openings, opened) where incident != nil {
            pass.incidentsOpened += 1
            if opening.late { pass.late += 1 }
        }
        return pass
    }
}
