import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// The people I watch over, most urgent first (manual alert, non-responsive, pinged, least
/// time left) or by name or date added, with pinging and clearing a ping from the row.
/// Tapping someone with an open incident opens the incident; anyone else, their details.
public struct DependentsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        /// The list itself: loading, search, details, adding someone, their incident.
        public var list: ContactListFeature.State
        /// Rows with a ping being sent or cleared.
        public var busyIDs: Set<UserID> = []

        public init(dependents: [Contact] = [], sort: ContactSort = .urgency) {
            self.list = ContactListFeature.State(role: .dependents, contacts: dependents, sort: sort)
        }

        public var dependents: IdentifiedArrayOf<Contact> { list.contacts }

        /// Dependents who need attention now: an alert or a missed check-in.
        public var attentionCount: Int {
            dependents.filter { $0.status?.state == .alert || $0.status?.state == .nonResponsive }.count
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case list(ContactListFeature.Action)
        case sortChanged(ContactSort)
        case pingButtonTapped(UserID)
        case pingResponse(UserID, Result<Ping, UserFacingError>)
        case clearPingButtonTapped(UserID)
        case clearPingResponse(UserID, Result<PingID, UserFacingError>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case contactsChanged
            /// Answering the ping of someone who is also my responder checked me in.
            case checkedIn(CheckInResult)
        }
    }

    @Dependency(\.pingClient) var pingClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.list, action: \.list) { ContactListFeature() }
        Reduce { state, action in
            switch action {
            case .list(.delegate(.contactsChanged)):
                return .send(.delegate(.contactsChanged))

            case let .list(.delegate(.checkedIn(result))):
                return .send(.delegate(.checkedIn(result)))

            case .list:
                return .none

            case let .sortChanged(sort):
                state.list.setSort(sort)
                return .none

            case let .pingButtonTapped(id):
                guard let contact = state.dependents[id: id], contact.outgoingPing == nil,
                    !state.busyIDs.contains(id)
                else { return .none }
                state.busyIDs.insert(id)
                return .catching({ .pingResponse(id, $0) }) { try await pingClient.send(id) }

            case let .pingResponse(id, .success(ping)):
                state.busyIDs.remove(id)
                state.list.update(id) { $0.outgoingPing = ping }
                return .none

            case let .clearPingButtonTapped(id):
                guard let ping = state.dependents[id: id]?.outgoingPing, !state.busyIDs.contains(id)
                else { return .none }
                state.busyIDs.insert(id)
                return .catching({ .clearPingResponse(id, $0) }) {
                    try await pingClient.clear(ping.id)
                    return ping.id
                }

            case let .clearPingResponse(id, .success):
                state.busyIDs.remove(id)
                state.list.update(id) { $0.outgoingPing = nil }
                return .none

            case let .pingResponse(id, .failure(error)), let .clearPingResponse(id, .failure(error)):
                state.busyIDs.remove(id)
                state.list.destination = .alert(.failure(error))
                return .none

            case .delegate:
                return .none
            }
        }
    }
}
