import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// My escalation ladder: who is told first when I miss a check-in, who next and after how
/// long, and who holds my key. Loaded with my responders and the preview (real times for my
/// next deadline) when the screen appears; edited in place, checked with `LadderRule` before
/// saving, saved against the version it was loaded at.
public struct LadderFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var ladder = Ladder.default
        /// My responders, key holders first: the people the steps can name.
        public var responders: [Contact] = []
        public var preview: LadderPreview?
        public var isLoading = false
        public var isSaving = false
        @PresentationState public var destination: Destination.State?

        public init() {}

        /// The step (0-based) a responder is on; nil when they are told with the last step,
        /// as "everyone else".
        public func step(of responder: UserID) -> Int? {
            ladder.steps.firstIndex { $0.responders.contains(responder) }
        }
    }

    /// What one load or save brings back.
    public struct Loaded: Equatable, Sendable {
        public var ladder: Ladder
        public var responders: [Contact]
        public var preview: LadderPreview
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case task
        case loadResponse(Result<Loaded, UserFacingError>)
        /// Puts a responder on a step (nil: with everyone else, on the last step).
        case placeResponder(UserID, step: Int?)
        case addStepTapped
        case removeStepTapped(Int)
        case waitChanged(step: Int, minutes: Int)
        case keyHolderTapped(UserID)
        case keyHolderResponse(Result<Contact, UserFacingError>)
        case saveButtonTapped
        case saveResponse(Result<Loaded, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.ladderClient) var ladderClient
    @Dependency(\.contactClient) var contactClient

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.loadResponse) { try await load(ladder: ladderClient.ladder()) }

            case let .loadResponse(.success(loaded)), let .saveResponse(.success(loaded)):
                state.isLoading = false
                state.isSaving = false
                state.ladder = loaded.ladder
                state.responders = loaded.responders
                state.preview = loaded.preview
                return .none

            case let .loadResponse(.failure(error)), let .saveResponse(.failure(error)), let .keyHolderResponse(.failure(error)):
                state.isLoading = false
                state.isSaving = false
                state.destination = .alert(.failure(error))
                return .none

            case let .placeResponder(responder, step):
                for index in state.ladder.steps.indices { state.ladder.steps[index].responders.removeAll { $0 == responder } }
                if let step, state.ladder.steps.indices.contains(step) { state.ladder.steps[step].responders.append(responder) }
                return .none

            case .addStepTapped:
                guard state.ladder.steps.count < LadderRule.maxSteps else { return .none }
                // A new step comes before "everyone else" when the last step is that.
                let new = Ladder.Step(responders: [], waitMinutes: 15)
                if let last = state.ladder.steps.last, last.responders.isEmpty, state.ladder.steps.count > 1 {
                    state.ladder.steps.insert(new, at: state.ladder.steps.count - 1)
                } else {
                    state.ladder.steps.append(new)
                }
                return .none

            case let .removeStepTapped(index):
                guard state.ladder.steps.count > 1, state.ladder.steps.indices.contains(index) else { return .none }
                state.ladder.steps.remove(at: index)
                state.ladder.steps[0].waitMinutes = 0
                return .none

            case let .waitChanged(step, minutes):
                guard step > 0, state.ladder.steps.indices.contains(step) else { return .none }
                state.ladder.steps[step].waitMinutes = minutes
                return .none

            case .binding:
                return .none

            case let .keyHolderTapped(responder):
                guard let contact = state.responders.first(where: { $0.userID == responder }) else { return .none }
                let holds = contact.keyHolder != true
                return .catching(Action.keyHolderResponse) { try await ladderClient.setKeyHolder(responder, holds) }

            case let .keyHolderResponse(.success(contact)):
                if let index = state.responders.firstIndex(where: { $0.userID == contact.userID }) {
                    state.responders[index] = contact
                }
                return .none

            case .saveButtonTapped:
                guard !state.isSaving else { return .none }
                if let problem = LadderRule.problems(state.ladder, responders: Set(state.responders.map(\.userID))).first {
                    state.destination = .alert(.failure(Self.error(problem, responders: state.responders)))
                    return .none
                }
                state.isSaving = true
                state.destination = nil
                let change = LadderChange(steps: state.ladder.steps, sosClimbs: state.ladder.sosClimbs, version: state.ladder.version)
                return .catching(Action.saveResponse) { try await load(ladder: ladderClient.save(change)) }

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }

    /// The ladder with my responders (key holders first) and its preview.
    private func load(ladder: Ladder) async throws -> Loaded {
        let responders = try await contactClient.list(.name).responders
        return Loaded(
            ladder: ladder, responders: responders.filter { $0.keyHolder == true } + responders.filter { $0.keyHolder != true },
            preview: try await ladderClient.preview())
    }

    /// A ladder the screen would not save, in the words it shows: the screen's own for what its
    /// controls make easy to get wrong, the server's (naming the step) for the rest.
    static func error(_ problem: LadderProblem, responders: [Contact]) -> UserFacingError {
        let step = String((problem.step ?? 0) + 1)
        let message =
            switch problem.kind {
            case .emptyStep: Words.app("app.ladder.emptyStep")
            case .tooManySteps: Words.app("app.ladder.tooManySteps")
            case .waitOutOfRange, .totalTooLong: Words.app("app.ladder.waits")
            case .noSteps: Words.app("error.ladder.noSteps")
            case .firstWaitNotZero: Words.app("error.ladder.firstWait", ["step": step])
            // Not among her responders (any more): there is no name to give.
            case .notAResponder: Words.app("error.ladder.notAResponder.unknown", ["step": step])
            case let .placedTwice(id):
                Words.app(
                    "error.ladder.placedTwice",
                    ["step": step, "name": responders.first { $0.userID == id }?.fullName ?? ""])
            }
        return UserFacingError(message: message, reason: .invalid(field: problem.field))
    }
}
