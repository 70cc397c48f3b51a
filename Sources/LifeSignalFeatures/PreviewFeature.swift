import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// "If you miss your next check-in": the reminders I would get and who would be alerted, on
/// which channels, in order, so I can see my setup works before I need it.
public struct PreviewFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var steps: [PreviewStep] = []
        public var isLoading = false
        @PresentationState public var destination: Destination.State?

        public init() {}

        /// Nothing would happen (paused, watching only, or an alert is already open).
        public var isEmpty: Bool { !isLoading && destination == nil && steps.isEmpty }
        /// Alerts would reach nobody: no responder would be told.
        public var reachesNobody: Bool {
            steps.contains { $0.kind == .incident && $0.responders.isEmpty }
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case refresh
        case previewResponse(Result<[PreviewStep], UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    @Dependency(\.settingsClient) var settingsClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .task, .refresh:
                guard !state.isLoading else { return .none }
                state.isLoading = true
                return .catching(Action.previewResponse) { try await settingsClient.preview() }

            case let .previewResponse(.success(steps)):
                state.isLoading = false
                state.destination = nil
                state.steps = steps.sorted { $0.at < $1.at }
                return .none

            case let .previewResponse(.failure(error)):
                state.isLoading = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }
}
