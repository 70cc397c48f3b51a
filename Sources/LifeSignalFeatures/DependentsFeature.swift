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
        public var dependents: IdentifiedArrayOf<Contact> = []
        public var sort: ContactSort = .urgency
        public var isLoading = false
        /// Rows with a ping being sent or cleared.
        public var busyIDs: Set<UserID> = []
        public var error: UserFacingError?
        @PresentationState public var destination: ContactsDestination.State?
        /// The request just sent, shown as "Waiting for … to accept" until the list reloads.
        public var sentRequest: ContactRequest?
        public var search = ContactSearchFeature.State()

        public init(dependents: [Contact] = [], sort: ContactSort = .urgency) {
            self.sort = sort
            self.setDependents(dependents)
        }

        /// Dependents who need attention now: an alert or a missed check-in.
        public var attentionCount: Int {
            dependents.filter { $0.status?.state == .alert || $0.status?.state == .nonResponsive }.count
        }

        /// The list as shown: filtered by the search once typing paused.
        public var visibleDependents: [Contact] { ContactSearch.filter(dependents, query: search.query) }

        mutating func setDependents(_ contacts: [Contact]) {
            dependents = IdentifiedArray(uniqueElements: sort.dependents(contacts))
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case contactsResponse(Result<ContactLists, UserFacingError>)
        case sortChanged(ContactSort)
        case pingButtonTapped(UserID)
        case pingResponse(UserID, Result<Ping, UserFacingError>)
        case clearPingButtonTapped(UserID)
        case clearPingResponse(UserID, Result<PingID, UserFacingError>)
        case contactTapped(UserID)
        case addContactButtonTapped
        case destination(PresentationAction<ContactsDestination.Action>)
        case search(ContactSearchFeature.Action)
        case dismissError
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case contactsChanged
            /// Answering the ping of someone who is also my responder checked me in.
            case checkedIn(CheckInResult)
        }
    }

    @Dependency(\.contactClient) var contactClient
    @Dependency(\.pingClient) var pingClient

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
                state.setDependents(lists.dependents)
                return .none

            case let .contactsResponse(.failure(error)):
                state.isLoading = false
                state.error = error
                return .none

            case let .sortChanged(sort):
                state.sort = sort
                state.setDependents(Array(state.dependents))
                return .none

            case let .pingButtonTapped(id):
                guard let contact = state.dependents[id: id], contact.outgoingPing == nil,
                    !state.busyIDs.contains(id)
                else { return .none }
                state.busyIDs.insert(id)
                return .run { send in
                    await send(.pingResponse(id, Result.catching { try await pingClient.send(id) }))
                }

            case let .pingResponse(id, .success(ping)):
                state.busyIDs.remove(id)
                state.dependents[id: id]?.outgoingPing = ping
                state.setDependents(Array(state.dependents))
                return .none

            case let .clearPingButtonTapped(id):
                guard let ping = state.dependents[id: id]?.outgoingPing, !state.busyIDs.contains(id)
                else { return .none }
                state.busyIDs.insert(id)
                return .run { send in
                    await send(
                        .clearPingResponse(
                            id,
                            Result.catching {
                                try await pingClient.clear(ping.id)
                                return ping.id
                            }))
                }

            case let .clearPingResponse(id, .success):
                state.busyIDs.remove(id)
                state.dependents[id: id]?.outgoingPing = nil
                state.setDependents(Array(state.dependents))
                return .none

            case let .pingResponse(id, .failure(error)), let .clearPingResponse(id, .failure(error)):
                state.busyIDs.remove(id)
                state.error = error
                return .none

            case let .contactTapped(id):
                guard let contact = state.dependents[id: id] else { return .none }
                if let incident = contact.status?.openIncident {
                    state.destination = .incident(IncidentFeature.State(incidentID: incident.id, personName: contact.firstName))
                } else {
                    state.destination = .contactDetails(ContactDetailsFeature.State(contact: contact))
                }
                return .none

            case let .destination(.presented(.incident(.delegate(.checkedInOnBehalf(result))))):
                state.dependents[id: result.checkIn.userID]?.status = result.status
                state.setDependents(Array(state.dependents))
                return .send(.delegate(.contactsChanged))

            case .destination(.presented(.incident(.delegate(.allClear)))):
                // Over: back to the list, which reloads to show where they stand now.
                state.destination = nil
                return .merge(.send(.task), .send(.delegate(.contactsChanged)))

            case .addContactButtonTapped:
                state.destination = .addContact(AddContactFeature.State(roles: .dependent))
                return .none

            case let .destination(.presented(.contactDetails(.delegate(.contactChanged(contact))))):
                var contacts = Array(state.dependents.filter { $0.id != contact.id })
                if contact.roles.isDependent { contacts.append(contact) }
                state.setDependents(contacts)
                return .send(.delegate(.contactsChanged))

            case let .destination(.presented(.contactDetails(.delegate(.contactRemoved(id))))):
                state.destination = nil
                state.dependents.remove(id: id)
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
