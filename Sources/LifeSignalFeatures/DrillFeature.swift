import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// A drill: a test notification to every responder on every channel, then its outcomes as
/// they arrive ("Bob: text delivered · Cy: e-mail failed"), so I know my alerts would get
/// through before I need them.
///
/// After the run the drill is read again every ``pollInterval`` until every delivery has an
/// outcome (delivered or failed) or ``watchFor`` has passed (a text the provider never
/// confirms stays "sent").
public struct DrillFeature: Reducer, Sendable {
    public static let pollInterval: Duration = .seconds(2)
    public static let watchFor: Duration = .seconds(60)

    public struct State: Equatable, Sendable {
        public var report: DrillReport?
        public var isRunning = false
        /// Outcomes are still being watched for.
        public var isWatching = false
        @PresentationState public var destination: Destination.State?

        public init(report: DrillReport? = nil) {
            self.report = report
        }

        /// Every delivery delivered or failed.
        public var isSettled: Bool {
            guard let report else { return false }
            return report.recipients.allSatisfy { recipient in
                recipient.deliveries.allSatisfy { $0.status == .delivered || $0.status == .failed }
            }
        }

        /// Responders none of whose channels worked.
        public var unreachable: [String] {
            guard isSettled, let report else { return [] }
            return report.recipients.filter { recipient in
                !recipient.deliveries.isEmpty && recipient.deliveries.allSatisfy { $0.status == .failed }
            }.map(\.name)
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case runButtonTapped
        case runResponse(Result<DrillReport, UserFacingError>)
        case drillUpdated(Result<DrillReport, UserFacingError>)
        case watchEnded
        case stopWatching
        case destination(PresentationAction<Destination.Action>)
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    enum CancelID { case watch }

    @Dependency(\.settingsClient) var settingsClient
    @Dependency(\.continuousClock) var clock

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .runButtonTapped:
                guard !state.isRunning else { return .none }
                state.isRunning = true
                state.report = nil
                return .merge(
                    .cancel(id: CancelID.watch),
                    .catching(Action.runResponse) { try await settingsClient.runDrill() })

            case let .runResponse(.success(report)):
                state.isRunning = false
                state.report = report
                return watch(&state, id: report.id)

            case let .runResponse(.failure(error)):
                state.isRunning = false
                state.destination = .alert(.failure(error))
                return .none

            case let .drillUpdated(.success(report)):
                guard report.id == state.report?.id else { return .none }
                state.report = report
                guard state.isSettled else { return .none }
                state.isWatching = false
                return .cancel(id: CancelID.watch)

            case .drillUpdated(.failure):
                // A missed read is tried again on the next round.
                return .none

            case .watchEnded, .stopWatching:
                state.isWatching = false
                return .cancel(id: CancelID.watch)

            case .destination:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
    }

    private func watch(_ state: inout State, id: DrillID) -> Effect<Action> {
        guard !state.isSettled else { return .none }
        state.isWatching = true
        return .run { send in
            let rounds = Int(Self.watchFor / Self.pollInterval)
            for _ in 0..<rounds {
                try await clock.sleep(for: Self.pollInterval)
                await send(.drillUpdated(Result.catching { try await settingsClient.drill(id) }))
            }
            await send(.watchEnded)
        }
        .cancellable(id: CancelID.watch, cancelInFlight: true)
    }
}
