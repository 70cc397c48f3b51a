import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// A list of my contacts in one role, responders or dependents: loading it, searching it, and
/// what it presents (a contact's details, adding a contact, a dependent's open incident).
/// `RespondersFeature` and `DependentsFeature` each hold one and add what only they do.
public struct ContactListFeature: Reducer, Sendable {
    /// Which of my lists this is.
    public enum Role: Equatable, Sendable {
        case responders, dependents

        /// The role a contact must have to be on this list, and that a new request asks for.
        var contactRole: ContactRoles {
            switch self {
            case .responders: .responder
            case .dependents: .dependent
            }
        }

        func contacts(in lists: ContactLists) -> [Contact] {
            switch self {
            case .responders: lists.responders
            case .dependents: lists.dependents
            }
        }

        func sorted(_ contacts: [Contact], by sort: ContactSort) -> [Contact] {
            switch self {
            case .responders: sort.responders(contacts)
            case .dependents: sort.dependents(contacts)
            }
        }
    }

    public struct State: Equatable, Sendable {
        public let role: Role
        public var contacts: IdentifiedArrayOf<Contact> = []
        /// The order of the list; only the dependents list offers a choice.
        public var sort: ContactSort
        public var isLoading = false
        @PresentationState public var destination: ContactsDestination.State?
        /// The request just sent, shown as "Waiting for … to accept" until the list reloads.
        public var sentRequest: ContactRequest?
        public var search = ContactSearchFeature.State()

        public init(role: Role, contacts: [Contact] = [], sort: ContactSort = .urgency) {
            self.role = role
            self.sort = sort
            self.setContacts(contacts)
        }

        /// The list as shown: filtered by the search once typing paused.
        public var visibleContacts: [Contact] { ContactSearch.filter(contacts, query: search.query) }

        /// Replaces the list, kept in its order.
        mutating func setContacts(_ contacts: [Contact]) {
            self.contacts = IdentifiedArray(uniqueElements: role.sorted(contacts, by: sort))
        }

        /// Changes one contact in place, then puts the list back in order.
        mutating func update(_ id: UserID, _ change: (inout Contact) -> Void) {
            guard var contact = contacts[id: id] else { return }
            change(&contact)
            contacts[id: id] = contact
            setContacts(Array(contacts))
        }

        /// Orders the list another way.
        mutating func setSort(_ sort: ContactSort) {
            self.sort = sort
            setContacts(Array(contacts))
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case contactsResponse(Result<ContactLists, UserFacingError>)
        case contactTapped(UserID)
        case addContactButtonTapped
        case destination(PresentationAction<ContactsDestination.Action>)
        case search(ContactSearchFeature.Action)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            /// A link was added, changed or removed: the other list may need reloading.
            case contactsChanged
            /// Answering a ping in a contact's details checked me in.
            case checkedIn(CheckInResult)
        }
    }

    @Dependency(\.contactClient) var contactClient

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.search, action: \.search) { ContactSearchFeature() }
        Reduce { state, action in
            switch action {
            case .task:
                state.isLoading = true
                return .catching(Action.contactsResponse) { try await contactClient.list(.urgency) }

            case let .contactsResponse(.success(lists)):
                state.isLoading = false
                state.setContacts(state.role.contacts(in: lists))
                return .none

            case let .contactsResponse(.failure(error)):
                state.isLoading = false
                state.destination = .alert(.failure(error))
                return .none

            case let .contactTapped(id):
                guard let contact = state.contacts[id: id] else { return .none }
                // A dependent in trouble opens on the incident; anyone else, on their details.
                if state.role == .dependents, let incident = contact.status?.openIncident {
                    state.destination = .incident(IncidentFeature.State(incidentID: incident.id, personName: contact.firstName))
                } else {
                    state.destination = .contactDetails(ContactDetailsFeature.State(contact: contact))
                }
                return .none

            case .addContactButtonTapped:
                state.destination = .addContact(AddContactFeature.State(roles: state.role.contactRole))
                return .none

            case let .destination(.presented(.incident(.delegate(.checkedInOnBehalf(result))))):
                state.update(result.checkIn.userID) { $0.status = result.status }
                return .send(.delegate(.contactsChanged))

            case .destination(.presented(.incident(.delegate(.allClear)))):
                // Over: back to the list, which reloads to show where they stand now.
                state.destination = nil
                return .merge(.send(.task), .send(.delegate(.contactsChanged)))

            case let .destination(.presented(.contactDetails(.delegate(.contactChanged(contact))))):
                var contacts = Array(state.contacts.filter { $0.id != contact.id })
                if contact.roles.contains(state.role.contactRole) { contacts.append(contact) }
                state.setContacts(contacts)
                return .send(.delegate(.contactsChanged))

            case let .destination(.presented(.contactDetails(.delegate(.contactRemoved(id))))):
                state.destination = nil
                state.contacts.remove(id: id)
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

            case .destination, .search, .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            ContactsDestination()
        }
    }
}
