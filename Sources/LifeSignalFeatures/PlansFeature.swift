import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels

/// Plans: "check on me by 18:00". Her running plans with one-press more time, "I'm back" and
/// calling off, and the form for a new one (headline, due time, sealed details, an
/// instruction for her responders, and whether to tell them now).
public struct PlansFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var plans: IdentifiedArrayOf<Plan> = []
        public var isLoading = false
        /// Plans with a press on its way (more time, back, call off).
        public var busyIDs: Set<PlanID> = []
        /// The new plan as typed; its due time is set three hours ahead when the screen opens.
        public var draft: PlanDraft?
        public var isStarting = false
        @PresentationState public var destination: Destination.State?

        public init() {}

        public var running: [Plan] { plans.filter(\.isRunning) }
        /// No more plans can be started (``Plan/activeLimit``).
        public var isFull: Bool { running.count >= Plan.activeLimit }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case plansResponse(Result<[Plan], UserFacingError>)
        case titleChanged(String)
        case dueAtChanged(Date)
        case detailsChanged(String)
        case instructionChanged(String)
        case tellRespondersToggled(Bool)
        /// A long plan: a check-in every so many hours (12–72); nil: only by the due time.
        case checkInEveryChanged(Int?)
        case startButtonTapped
        case startResponse(Result<Plan, UserFacingError>)
        case moreTimeButtonTapped(PlanID, minutes: Int)
        case backButtonTapped(PlanID)
        case cancelButtonTapped(PlanID)
        case planResponse(PlanID, Result<Plan, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    public typealias Destination = AlertDestination

    @Dependency(\.planClient) var planClient
    @Dependency(\.date) var date

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                if state.draft == nil { state.draft = PlanDraft(dueAt: date.now.addingTimeInterval(3 * 3600)) }
                return .catching(Action.plansResponse) { try await planClient.plans() }

            case let .plansResponse(.success(plans)):
                state.isLoading = false
                state.plans = IdentifiedArray(uniqueElements: plans)
                return .none

            case let .titleChanged(title):
                state.draft?.title = title
                return .none

            case let .dueAtChanged(due):
                state.draft?.dueAt = due
                return .none

            case let .detailsChanged(details):
                state.draft?.details = details
                return .none

            case let .instructionChanged(instruction):
                state.draft?.instruction = instruction
                return .none

            case let .tellRespondersToggled(on):
                state.draft?.tellResponders = on
                return .none

            case let .checkInEveryChanged(hours):
                state.draft?.checkInEveryHours = hours.map { min(max($0, Plan.checkInHours.lowerBound), Plan.checkInHours.upperBound) }
                return .none

            case .startButtonTapped:
                guard var draft = state.draft, !state.isStarting else { return .none }
                draft.title = draft.title.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !draft.title.isEmpty else {
                    state.destination = .alert(
                        .failure(UserFacingError(message: Words.app("validation.plan.title"), reason: .invalid(field: "title"))))
                    return .none
                }
                guard draft.dueAt > date.now else {
                    state.destination = .alert(
                        .failure(UserFacingError(message: Words.app("validation.plan.duePast"), reason: .invalid(field: "dueAt"))))
                    return .none
                }
                state.isStarting = true
                return .catching(Action.startResponse) { [draft] in try await planClient.start(draft) }

            case let .startResponse(.success(plan)):
                state.isStarting = false
                state.plans.insert(plan, at: 0)
                state.draft = PlanDraft(dueAt: date.now.addingTimeInterval(3 * 3600))
                return .none

            case let .moreTimeButtonTapped(id, minutes):
                guard state.plans[id: id]?.isRunning == true, !state.busyIDs.contains(id) else { return .none }
                state.busyIDs.insert(id)
                return .catching({ .planResponse(id, $0) }) { try await planClient.extend(id, minutes) }

            case let .backButtonTapped(id):
                guard state.plans[id: id]?.isRunning == true, !state.busyIDs.contains(id) else { return .none }
                state.busyIDs.insert(id)
                return .catching({ .planResponse(id, $0) }) { try await planClient.done(id) }

            case let .cancelButtonTapped(id):
                guard let plan = state.plans[id: id], plan.isRunning, !state.busyIDs.contains(id) else { return .none }
                state.busyIDs.insert(id)
                return .catching({ .planResponse(id, $0) }) { [date] in
                    try await planClient.cancel(id)
                    var ended = plan
                    ended.state = .cancelled
                    ended.details = nil
                    ended.endedAt = date.now
                    return ended
                }

            case let .planResponse(id, .success(plan)):
                state.busyIDs.remove(id)
                state.plans[id: id] = plan
                return .none

            case let .planResponse(id, .failure(error)):
                state.busyIDs.remove(id)
                state.destination = .alert(.failure(error))
                return .none

            case let .plansResponse(.failure(error)), let .startResponse(.failure(error)):
                state.isLoading = false
                state.isStarting = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
