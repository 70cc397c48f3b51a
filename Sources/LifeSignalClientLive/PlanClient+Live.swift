import Dependencies
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalModels

extension PlanClient: DependencyKey {
    public static var liveValue: PlanClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient, source: CheckIn.Source = .app) -> PlanClient {
        PlanClient(
            plans: { try await api.send(Operations.listPlans) },
            start: { draft in
                try await api.send(
                    Operations.startPlan,
                    body: PlanBody(
                        title: draft.title, dueAt: draft.dueAt, details: draft.details.isEmpty ? nil : draft.details,
                        instruction: draft.instruction.isEmpty ? nil : draft.instruction,
                        instructionAt: draft.instruction.isEmpty ? nil : draft.instructionAt, tellResponders: draft.tellResponders,
                        checkInEveryHours: draft.checkInEveryHours))
            },
            extend: { id, minutes in
                try await api.send(
                    Operations.extendPlan, ByID(id), body: PlanExtensionBody(minutes: minutes))
            },
            done: { id in
                try await api.send(Operations.finishPlan, ByID(id), body: PlanDoneBody(source: source))
            },
            cancel: { id in try await api.send(Operations.cancelPlan, ByID(id)) },
            headlines: { person in try await api.send(Operations.listContactPlans, ByID(person)) }
        )
    }
}
