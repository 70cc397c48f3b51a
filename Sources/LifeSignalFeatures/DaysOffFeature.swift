import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Days off: her pauses that have not ended (the one that holds, and those planned ahead),
/// planning one (from a day until a day, at most 30 days), and ending or calling one off. Her
/// responders are told each change by the server.
public struct DaysOffFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var pauses: IdentifiedArrayOf<Pause> = []
        public var isLoading = false
        public var removingIDs: Set<PauseID> = []
        /// The new pause's start and end, as the pickers hold them.
        public var from: Date
        public var until: Date
        public var isAdding = false
        @PresentationState public var destination: Destination.State?

        public init(from: Date, until: Date) {
            self.from = from
            self.until = until
        }

        /// No more can be planned (``Pause/upcomingLimit``).
        public var isFull: Bool { pauses.count >= Pause.upcomingLimit }
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case task
        case pausesResponse(Result<[Pause], UserFacingError>)
        case addButtonTapped
        case addResponse(Result<Pause, UserFacingError>)
        case removeButtonTapped(PauseID)
        case removeResponse(PauseID, Result<CheckInStatus, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// Her status after a pause that held was ended.
            case statusChanged(CheckInStatus)
        }
    }

    /// What this screen presents over itself: an alert when something failed, or the question
    /// a pause that starts now asks while her responders are alerted.
    public struct Destination: Reducer {
        @CasePathable
        public enum State: Equatable, Sendable {
            case alert(AlertState<Alert>)
        }

        @CasePathable
        public enum Action: Equatable, Sendable {
            case alert(Alert)
        }

        public enum Alert: Equatable, Sendable {
            /// Add the pause on the pickers, ending the open alert or leaving it to her responders.
            case add(OpenIncidentChoice)
        }

        public var body: some ReducerOf<Self> {
            EmptyReducer()
        }
    }

    @Dependency(\.pauseClient) var pauseClient
    @Dependency(\.checkInClient) var checkInClient
    @Dependency(\.date) var date

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.pausesResponse) { try await pauseClient.pauses() }

            case let .pausesResponse(.success(pauses)):
                state.isLoading = false
                state.pauses = IdentifiedArray(uniqueElements: pauses)
                return .none

            case .binding:
                return .none

            case .addButtonTapped:
                guard !state.isAdding else { return .none }
                let (from, until) = (state.from, state.until)
                guard state.passes({ _ in try Validation.pause(from: from, until: until, now: date.now) }) else {
                    return .none
                }
                return add(nil, &state)

            case let .destination(.presented(.alert(.add(choice)))):
                guard !state.isAdding else { return .none }
                return add(choice, &state)

            case let .addResponse(.failure(error)) where error.reason == .refused(.incidentOpen):
                // A pause that starts now, while her responders are alerted: she says what becomes of it.
                state.isAdding = false
                state.destination = .alert(.pausingWhileAlertOpen(Destination.Alert.add))
                return .none

            case let .addResponse(.success(pause)):
                state.isAdding = false
                state.pauses.append(pause)
                state.pauses.sort { $0.from < $1.from }
                // One that holds already changes her status, and may have ended her alert: the
                // rest of the app hears it. Unread, the live stream or the next refresh says it.
                guard pause.from <= date.now else { return .none }
                return .run { send in
                    if let status = try? await checkInClient.status() { await send(.delegate(.statusChanged(status))) }
                }

            case let .removeButtonTapped(id):
                guard state.pauses[id: id] != nil, !state.removingIDs.contains(id) else { return .none }
                state.removingIDs.insert(id)
                return .catching({ .removeResponse(id, $0) }) { try await pauseClient.remove(id) }

            case let .removeResponse(id, .success(status)):
                state.removingIDs.remove(id)
                state.pauses.remove(id: id)
                return .send(.delegate(.statusChanged(status)))

            case let .removeResponse(id, .failure(error)):
                state.removingIDs.remove(id)
                state.destination = .alert(.failure(error))
                return .none

            case let .pausesResponse(.failure(error)), let .addResponse(.failure(error)):
                state.isLoading = false
                state.isAdding = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination, .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            Destination()
        }
    }

    /// Adds the pause on the pickers, with her answer about an open alert when she gave one.
    private func add(_ openIncident: OpenIncidentChoice?, _ state: inout State) -> Effect<Action> {
        state.isAdding = true
        let (from, until) = (state.from, state.until)
        return .catching(Action.addResponse) { try await pauseClient.add(from, until, openIncident) }
    }
}
