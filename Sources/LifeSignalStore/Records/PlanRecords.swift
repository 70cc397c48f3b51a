import Foundation
import LifeSignalModels

/// A plan as the engine holds it: the plan, whose it is, and how far its steps have gone.
public struct PlanState: Sendable, Hashable {
    public var plan: Plan
    public var userID: UserID
    /// Steps taken for the current `dueAt` (see `PlanRule.Step`); an extension starts again at 0.
    public var step: Int

    public init(plan: Plan, userID: UserID, step: Int) {
        self.plan = plan
        self.userID = userID
        self.step = step
    }
}

extension StoreTransaction {
    /// Plans (a one-off "check on me by 18:00" beside the rhythm) and how far each has gone.
    public struct Plans: Sendable {
        let tx: StoreTransaction
    }

    public var plans: Plans { Plans(tx: self) }
}

extension StoreTransaction.Plans {
    public func insert(_ plan: Plan, of userID: UserID, step: Int, nextActionAt: Date?) async throws {
        try await tx.db.execute(
            """
            INSERT INTO plans (id, user_id, title, details, instruction, instruction_at, tell_responders, state,
                started_at, due_at, ended_at, extensions, step, next_action_at, check_in_hours, check_in_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            plan.id, userID, plan.title, plan.details, plan.instruction, plan.instructionAt, plan.tellResponders,
            plan.state.rawValue, plan.startedAt, plan.dueAt, plan.endedAt, plan.extensions, step, nextActionAt,
            plan.checkInEveryHours, plan.checkInBy)
    }

    /// Her plans, running ones first, then the newest ended ones.
    public func list(of userID: UserID, limit: Int = 50) async throws -> [Plan] {
        try await tx.db.query(
            """
            SELECT * FROM plans WHERE user_id = ?
            ORDER BY CASE WHEN ended_at IS NULL THEN 0 ELSE 1 END, COALESCE(ended_at, due_at) DESC, id LIMIT ?
            """, userID, limit
        ).map(StoreTransaction.decodePlan)
    }

    /// Her running plans (active or overdue), soonest due first.
    public func runningPlans(of userID: UserID) async throws -> [Plan] {
        try await tx.db.query(
            "SELECT * FROM plans WHERE user_id = ? AND ended_at IS NULL ORDER BY due_at, id", userID
        ).map(StoreTransaction.decodePlan)
    }

    /// Her running plans with where each stands in its steps, soonest due first.
    public func runningPlanStates(of userID: UserID) async throws -> [PlanState] {
        try await tx.db.query(
            "SELECT * FROM plans WHERE user_id = ? AND ended_at IS NULL ORDER BY due_at, id", userID
        ).map(StoreTransaction.decodePlanState)
    }

    public func plan(_ id: PlanID) async throws -> Plan? {
        try await tx.db.queryFirst("SELECT * FROM plans WHERE id = ?", id).map(StoreTransaction.decodePlan)
    }

    /// One plan of hers with its engine state, locked on PostgreSQL until the commit.
    public func lockPlan(_ id: PlanID, of userID: UserID) async throws -> PlanState? {
        try await tx.db.queryFirst("SELECT * FROM plans WHERE id = ? AND user_id = ?\(tx.lockRow)", id, userID).map(
            StoreTransaction.decodePlanState)
    }

    /// Whether any plan has a step due by `now` (a read: the engine takes the writer only then).
    public func hasDuePlans(now: Date) async throws -> Bool {
        try await tx.db.queryFirst("SELECT 1 AS due FROM plans WHERE next_action_at IS NOT NULL AND next_action_at <= ? LIMIT 1", now)
            != nil
    }

    /// Plans with a step due by `now`, locked (skipping rows another engine holds) until the commit.
    public func lockDuePlans(now: Date, limit: Int) async throws -> [PlanState] {
        try await tx.db.query(
            """
            SELECT * FROM plans WHERE next_action_at IS NOT NULL AND next_action_at <= ?
            ORDER BY next_action_at LIMIT ?\(tx.skipLocked)
            """, now, min(limit, StoreTransaction.maxClaim)
        ).map(StoreTransaction.decodePlanState)
    }

    /// Writes what changes on a plan: its times, state, details, steps and next step.
    public func update(_ plan: Plan, step: Int, nextActionAt: Date?) async throws {
        try await tx.db.execute(
            """
            UPDATE plans SET due_at = ?, details = ?, state = ?, ended_at = ?, extensions = ?, step = ?, next_action_at = ?,
                check_in_by = ?
            WHERE id = ?
            """,
            plan.dueAt, plan.details, plan.state.rawValue, plan.endedAt, plan.extensions, step, nextActionAt, plan.checkInBy,
            plan.id)
    }

    /// Erases the details of up to `limit` plans that ended before `cutoff` (their headline and
    /// times stay); returns how many.
    @discardableResult
    public func erasePlanDetails(endedBefore cutoff: Date, limit: Int) async throws -> Int {
        try await tx.db.execute(
            """
            UPDATE plans SET details = NULL WHERE id IN (
                SELECT id FROM plans WHERE details IS NOT NULL AND ended_at IS NOT NULL AND ended_at < ? LIMIT ?)
            """, cutoff, limit)
    }
}

extension StoreTransaction {
    static func decodePlan(_ row: SQLRow) throws -> Plan {
        Plan(
            id: try row.id("id"), title: try row.string("title"), startedAt: try row.date("started_at"),
            dueAt: try row.date("due_at"), details: try row.optionalString("details"),
            instruction: try row.optionalString("instruction"), instructionAt: try row.optionalDate("instruction_at"),
            tellResponders: try row.bool("tell_responders"), state: try row.value("state", as: Plan.State.self),
            endedAt: try row.optionalDate("ended_at"), extensions: try row.int("extensions"),
            checkInEveryHours: try row.optionalInt("check_in_hours"), checkInBy: try row.optionalDate("check_in_by"))
    }

    static func decodePlanState(_ row: SQLRow) throws -> PlanState {
        PlanState(plan: try decodePlan(row), userID: try row.id("user_id"), step: try row.int("step"))
    }
}
