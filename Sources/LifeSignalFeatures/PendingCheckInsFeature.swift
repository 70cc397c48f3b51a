import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// Check-ins kept on the device while offline: whether the network is there, the queue, and
/// sending it when the network returns. Part of the check-in screen.
public struct PendingCheckInsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var isOnline: Bool
        /// Check-ins kept on the device until the network returns, oldest first.
        public var checkIns: [PendingCheckIn]

        public init(isOnline: Bool = true, checkIns: [PendingCheckIn] = []) {
            self.isOnline = isOnline
            self.checkIns = checkIns
        }

        /// A check-in could not reach the server and waits on the device.
        mutating func queue(_ pending: PendingCheckIn) {
            isOnline = false
            checkIns.append(pending)
        }

        /// A check-in reached the server; it no longer waits.
        mutating func remove(_ id: CheckInID) {
            checkIns.removeAll { $0.id == id }
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        /// Starts following the network; the parent runs it when the app becomes active.
        case startObserving
        /// Stops following the network; the parent runs it when the app becomes inactive.
        case stopObserving
        case loaded([PendingCheckIn])
        case reachabilityChanged(Bool)
        case flushResponse(Result<[CheckInResult], UserFacingError>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// Queued check-ins reached the server, in order; the last one carries the latest status.
            case sent([CheckInResult])
            /// Sending failed for a reason other than being offline.
            case failed(UserFacingError)
        }
    }

    enum CancelID { case reachability }

    @Dependency(\.checkInClient) var checkInClient
    @Dependency(\.reachabilityClient) var reachability

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .startObserving:
                return .run { send in
                    for await isOnline in reachability.updates() {
                        await send(.reachabilityChanged(isOnline))
                    }
                }
                .cancellable(id: CancelID.reachability, cancelInFlight: true)

            case .stopObserving:
                return .cancel(id: CancelID.reachability)

            case let .loaded(pending):
                state.checkIns = pending
                return flushIfPossible(state)

            case let .reachabilityChanged(isOnline):
                state.isOnline = isOnline
                return flushIfPossible(state)

            case let .flushResponse(.success(results)):
                let sent = Set(results.map(\.checkIn.id))
                state.checkIns.removeAll { sent.contains($0.id) }
                guard !results.isEmpty else { return .none }
                return .send(.delegate(.sent(results)))

            case let .flushResponse(.failure(error)):
                guard error.isOffline else { return .send(.delegate(.failed(error))) }
                // Still offline: the queue stays and is sent on the next change.
                state.isOnline = false
                return .none

            case .delegate:
                return .none
            }
        }
    }

    private func flushIfPossible(_ state: State) -> Effect<Action> {
        guard state.isOnline, !state.checkIns.isEmpty else { return .none }
        return .catching(Action.flushResponse) { try await checkInClient.flushPending() }
    }
}
