import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// The person's plans: "check on me by 18:00" (``Plan``).
@DependencyClient
public struct PlanClient: Sendable {
    /// Her plans, running ones first.
    public var plans: @Sendable () async throws -> [Plan]
    /// Starts a plan.
    public var start: @Sendable (_ draft: PlanDraft) async throws -> Plan
    /// More time: `minutes` more (from the due time, or from now when she is late).
    public var extend: @Sendable (_ id: PlanID, _ minutes: Int) async throws -> Plan
    /// "I'm back": ends it and checks her in.
    public var done: @Sendable (_ id: PlanID) async throws -> Plan
    /// Calls it off: its details are erased.
    public var cancel: @Sendable (_ id: PlanID) async throws -> Void
    /// The running plans someone she watches over told her about (headlines and times).
    public var headlines: @Sendable (_ person: UserID) async throws -> [PlanHeadline]
}

/// A plan as the start screen fills it in.
public struct PlanDraft: Sendable, Hashable {
    public var title: String
    public var dueAt: Date
    public var details: String
    public var instruction: String
    public var instructionAt: Date?
    public var tellResponders: Bool
    /// A long plan: she checks in at least every this many hours (12–72); nil: only by the due time.
    public var checkInEveryHours: Int?

    public init(
        title: String = "", dueAt: Date, details: String = "", instruction: String = "", instructionAt: Date? = nil,
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

extension PlanClient: TestDependencyKey {
    public static let testValue = PlanClient()

    public static let previewValue = PlanClient(
        plans: { [] },
        start: { draft in
            Plan(
                id: PlanID(UUID()), title: draft.title, startedAt: Date(), dueAt: draft.dueAt,
                details: draft.details.isEmpty ? nil : draft.details, tellResponders: draft.tellResponders)
        },
        extend: { id, minutes in
            Plan(id: id, title: "Preview", startedAt: Date(), dueAt: Date().addingTimeInterval(Double(minutes) * 60))
        },
        done: { id in Plan(id: id, title: "Preview", startedAt: Date(), dueAt: Date(), state: .done, endedAt: Date()) },
        cancel: { _ in },
        headlines: { _ in [] }
    )
}

extension DependencyValues {
    public var planClient: PlanClient {
        get { self[PlanClient.self] }
        set { self[PlanClient.self] = newValue }
    }
}
