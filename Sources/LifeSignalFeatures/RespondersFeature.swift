import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// The people who watch over me. Those waiting for my answer to a ping come first; I can
/// answer one, or all at once (either counts as a check-in), or answer a ping "I need help",
/// which raises an alert to that responder and all the others.
public struct RespondersFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        /// The list itself: loading, search, details, adding someone.
        public var list: ContactListFeature.State
        public var isResponding = false

        public init(responders: [Contact] = []) {
            self.list = ContactListFeature.State(role: .responders, contacts: responders)
        }

        public var responders: IdentifiedArrayOf<Contact> { list.contacts }

        public var pendingPingCount: Int { responders.filter { $0.incomingPing != nil }.count }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case list(ContactListFeature.Action)
        case respondButtonTapped(UserID)
        /// The answer to one responder's ping, or to all of them (`nil`).
        case respondResponse(UserID?, Result<CheckInResult, UserFacingError>)
        case respondToAllButtonTapped
        /// "I need help" to this responder's ping.
        case needHelpButtonTapped(UserID)
        case needHelpResponse(UserID, Result<Incident, UserFacingError>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// A link was added, changed or removed: the other list may need reloading.
            case contactsChanged
            /// Answering pings checked me in.
            case checkedIn(CheckInResult)
            /// Answering a ping "I need help" raised an alert.
            case alertRaised(Incident)
        }
    }

    @Dependency(\.pingClient) var pingClient
    @Dependency(\.uuid) var uuid

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

            case let .respondButtonTapped(id):
                guard let ping = state.responders[id: id]?.incomingPing, !state.isResponding else { return .none }
                state.isResponding = true
                let checkInID = CheckInID(uuid())
                return .catching({ .respondResponse(id, $0) }) { try await pingClient.answer(ping.id, checkInID) }

            case .respondToAllButtonTapped:
                guard state.pendingPingCount > 0, !state.isResponding else { return .none }
                state.isResponding = true
                let checkInID = CheckInID(uuid())
                return .catching({ .respondResponse(nil, $0) }) { try await pingClient.answerAll(checkInID) }

            case let .needHelpButtonTapped(id):
                guard let ping = state.responders[id: id]?.incomingPing, !state.isResponding else { return .none }
                state.isResponding = true
                return .catching({ .needHelpResponse(id, $0) }) { try await pingClient.needHelp(ping.id) }

            case let .needHelpResponse(id, .success(incident)):
                state.isResponding = false
                state.list.update(id) { $0.incomingPing = nil }
                return .send(.delegate(.alertRaised(incident)))

            case let .needHelpResponse(_, .failure(error)):
                state.isResponding = false
                state.list.destination = .alert(.failure(error))
                return .none

            case let .respondResponse(id, .success(result)):
                state.isResponding = false
                var contacts = Array(state.responders)
                for index in contacts.indices where id == nil || id == contacts[index].id {
                    contacts[index].incomingPing = nil
                }
                state.list.setContacts(contacts)
                return .send(.delegate(.checkedIn(result)))

            case let .respondResponse(_, .failure(error)):
                state.isResponding = false
                state.list.destination = .alert(.failure(error))
                return .none

            case .delegate:
                return .none
            }
        }
    }
}
