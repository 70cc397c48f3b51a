import ComposableCore

/// What the responders and dependents lists present: a contact's details, adding one, a
/// dependent's open incident, or an alert when something failed.
public struct ContactsDestination: Reducer {
    @CasePathable
    public enum State: Equatable, Sendable {
        case contactDetails(ContactDetailsFeature.State)
        case addContact(AddContactFeature.State)
        case incident(IncidentFeature.State)
        case alert(AlertState<Never>)
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case contactDetails(ContactDetailsFeature.Action)
        case addContact(AddContactFeature.Action)
        case incident(IncidentFeature.Action)
        case alert(Never)
    }

    public var body: some ReducerOf<Self> {
        Scope(state: \.contactDetails, action: \.contactDetails) {
            ContactDetailsFeature()
        }
        Scope(state: \.addContact, action: \.addContact) {
            AddContactFeature()
        }
        Scope(state: \.incident, action: \.incident) {
            IncidentFeature()
        }
    }
}
