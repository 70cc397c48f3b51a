import ComposableCore

/// What the responders and dependents lists present: a contact's details, or adding one.
public struct ContactsDestination: Reducer {
    @CasePathable
    public enum State: Equatable, Sendable {
        case contactDetails(ContactDetailsFeature.State)
        case addContact(AddContactFeature.State)
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case contactDetails(ContactDetailsFeature.Action)
        case addContact(AddContactFeature.Action)
    }

    public var body: some ReducerOf<Self> {
        Scope(state: \.contactDetails, action: \.contactDetails) {
            ContactDetailsFeature()
        }
        Scope(state: \.addContact, action: \.addContact) {
            AddContactFeature()
        }
    }
}
