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
        public var responders: IdentifiedArrayOf<Contact> = []
        public var isLoading = false
        public var isResponding = false
        public var error: UserFacingError?
        @PresentationState public var destination: ContactsDestination.State?
        /// The request just sent, shown as "Waiting for … to accept" until the list reloads.
        public var sentRequest: ContactRequest?
        public var search = ContactSearchFeature.State()

        public init(responders: [Contact] = []) {
            self.responders = IdentifiedArray(uniqueElements: ContactSort.urgency.responders(responders))
        }

        public var pendingPingCount: Int { responders.filter { $0.incomingPing != nil }.count }

        /// The list as shown: filtered by the search once typing paused.
        public var visibleResponders: [Contact] { ContactSearch.filter(responders, query: search.query) }

        mutating func setResponders(_ contacts: [Contact]) {
            responders = IdentifiedArray(uniqueElements: ContactSort.urgency.responders(contacts))
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case contactsResponse(Result<ContactLists, UserFacingError>)
        case respondButtonTapped(UserID)
        /// The answer to one responder's ping, or to all of them (`nil`).
        case respondResponse(UserID?, Result<CheckInResult, UserFacingError>)
        case respondToAllButtonTapped
        /// "I need help" to this responder's ping.
        case needHelpButtonTapped(UserID)
        case needHelpResponse(UserID, Result<Incident, UserFacingError>)
        case contactTapped(UserID)
        case addContactButtonTapped
        case destination(PresentationAction<ContactsDestination.Action>)
        case search(ContactSearchFeature.Action)
        case dismissError
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

    @Dependency(\.contactClient) var contactClient
    @Dependency(\.pingClient) var pingClient
    @Dependency(\.uuid) var uuid

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.search, action: \.search) { ContactSearchFeature() }
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .run { send in
                    await send(.contactsResponse(Result.catching { try await contactClient.list(.urgency) }))
                }

            case let .contactsResponse(.success(lists)):
                state.isLoading = false
                state.setResponders(lists.responders)
                return .none

            case let .contactsResponse(.failure(error)):
                state.isLoading = false
                state.error = error
                return .none

            case let .respondButtonTapped(id):
                guard let ping = state.responders[id: id]?.incomingPing, !state.isResponding else { return .none }
                state.isResponding = true
                let checkInID = CheckInID(uuid())
                return .run { send in
                    await send(.respondResponse(id, Result.catching { try await pingClient.answer(ping.id, checkInID) }))
                }

            case .respondToAllButtonTapped:
                guard state.pendingPingCount > 0, !state.isResponding else { return .none }
                state.isResponding = true
                let checkInID = CheckInID(uuid())
                return .run { send in
                    await send(.respondResponse(nil, Result.catching { try await pingClient.answerAll(checkInID) }))
                }

            case let .needHelpButtonTapped(id):
                guard let ping = state.responders[id: id]?.incomingPing, !state.isResponding else { return .none }
                state.isResponding = true
                return .run { send in
                    await send(.needHelpResponse(id, Result.catching { try await pingClient.needHelp(ping.id) }))
                }

            case let .needHelpResponse(id, .success(incident)):
                state.isResponding = false
                state.responders[id: id]?.incomingPing = nil
                state.setResponders(Array(state.responders))
                return .send(.delegate(.alertRaised(incident)))

            case let .needHelpResponse(_, .failure(error)):
                state.isResponding = false
                state.error = error
                return .none

            case let .respondResponse(id, .success(result)):
                state.isResponding = false
                for responderID in state.responders.ids where id == nil || id == responderID {
                    state.responders[id: responderID]?.incomingPing = nil
                }
                state.setResponders(Array(state.responders))
                return .send(.delegate(.checkedIn(result)))

            case let .respondResponse(_, .failure(error)):
                state.isResponding = false
                state.error = error
                return .none

            case let .contactTapped(id):
                guard let contact = state.responders[id: id] else { return .none }
                state.destination = .contactDetails(ContactDetailsFeature.State(contact: contact))
                return .none

            case .addContactButtonTapped:
                state.destination = .addContact(AddContactFeature.State(roles: .responder))
                return .none

            case let .destination(.presented(.contactDetails(.delegate(.contactChanged(contact))))):
                var contacts = Array(state.responders.filter { $0.id != contact.id })
                if contact.roles.isResponder { contacts.append(contact) }
                state.setResponders(contacts)
                return .send(.delegate(.contactsChanged))

            case let .destination(.presented(.contactDetails(.delegate(.contactRemoved(id))))):
                state.destination = nil
                state.responders.remove(id: id)
                return .send(.delegate(.contactsChanged))

            case let .destination(.presented(.contactDetails(.delegate(.checkedIn(result))))):
                return .send(.delegate(.checkedIn(result)))

            case let .destination(.presented(.addContact(.delegate(.requestSent(request))))):
                // Nobody joins a list until they accept; the lists reload when they do.
                state.destination = nil
                state.sentRequest = request
                return .none

            case .destination(.presented(.addContact(.delegate(.cancelled)))):
                state.destination = nil
                return .none

            case .destination:
                return .none

            case .search:
                return .none

            case .dismissError:
                state.error = nil
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            ContactsDestination()
        }
    }
}
