import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels

/// One contact: their note and status, their roles (each change confirmed; dropping the last
/// role means removing them), pinging a dependent, answering their ping, and removal.
public struct ContactDetailsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var contact: Contact
        public var isBusy = false
        @PresentationState public var destination: Destination.State?

        public init(contact: Contact) {
            self.contact = contact
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case responderToggled(Bool)
        case dependentToggled(Bool)
        case rolesResponse(Result<Contact, UserFacingError>)
        case pingButtonTapped
        case pingResponse(Result<Ping, UserFacingError>)
        case clearPingButtonTapped
        case clearPingResponse(Result<PingID, UserFacingError>)
        case answerPingButtonTapped
        case answerPingResponse(Result<CheckInResult, UserFacingError>)
        case removeButtonTapped
        case removeResponse(Result<UserID, UserFacingError>)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case contactChanged(Contact)
            case contactRemoved(UserID)
            case checkedIn(CheckInResult)
        }
    }

    /// The alerts: a confirmation, whose button carries what it confirms, or a failure.
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
            case confirmRoleChange(ContactRoles)
            case confirmRemove
        }

        public var body: some ReducerOf<Self> {
            EmptyReducer()
        }
    }

    @Dependency(\.contactClient) var contactClient
    @Dependency(\.pingClient) var pingClient
    @Dependency(\.uuid) var uuid

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .responderToggled(isOn):
                return askToChangeRoles(isOn ? .responder : [], keeping: .dependent, &state)

            case let .dependentToggled(isOn):
                return askToChangeRoles(isOn ? .dependent : [], keeping: .responder, &state)

            case let .destination(.presented(.alert(.confirmRoleChange(roles)))):
                state.isBusy = true
                let id = state.contact.userID
                return .catching(Action.rolesResponse) { try await contactClient.updateRoles(id, roles) }

            case let .rolesResponse(.success(contact)):
                state.isBusy = false
                state.contact = contact
                return .send(.delegate(.contactChanged(contact)))

            case .pingButtonTapped:
                guard state.contact.roles.isDependent, state.contact.outgoingPing == nil, !state.isBusy
                else { return .none }
                state.isBusy = true
                let id = state.contact.userID
                return .catching(Action.pingResponse) { try await pingClient.send(id) }

            case let .pingResponse(.success(ping)):
                state.isBusy = false
                state.contact.outgoingPing = ping
                return .send(.delegate(.contactChanged(state.contact)))

            case .clearPingButtonTapped:
                guard let ping = state.contact.outgoingPing, !state.isBusy else { return .none }
                state.isBusy = true
                return .catching(Action.clearPingResponse) {
                    try await pingClient.clear(ping.id)
                    return ping.id
                }

            case .clearPingResponse(.success):
                state.isBusy = false
                state.contact.outgoingPing = nil
                return .send(.delegate(.contactChanged(state.contact)))

            case .answerPingButtonTapped:
                guard let ping = state.contact.incomingPing, !state.isBusy else { return .none }
                state.isBusy = true
                let checkInID = CheckInID(uuid())
                return .catching(Action.answerPingResponse) { try await pingClient.answer(ping.id, checkInID) }

            case let .answerPingResponse(.success(result)):
                state.isBusy = false
                state.contact.incomingPing = nil
                return .merge(
                    .send(.delegate(.contactChanged(state.contact))), .send(.delegate(.checkedIn(result))))

            case .removeButtonTapped:
                state.destination = .alert(.confirmRemove(state.contact))
                return .none

            case .destination(.presented(.alert(.confirmRemove))):
                state.isBusy = true
                let id = state.contact.userID
                return .catching(Action.removeResponse) {
                    try await contactClient.remove(id)
                    return id
                }

            case let .removeResponse(.success(id)):
                state.isBusy = false
                return .send(.delegate(.contactRemoved(id)))

            case let .rolesResponse(.failure(error)), let .pingResponse(.failure(error)),
                let .clearPingResponse(.failure(error)), let .answerPingResponse(.failure(error)),
                let .removeResponse(.failure(error)):
                state.isBusy = false
                state.destination = .alert(.failure(error))
                return .none

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            Destination()
        }
    }

    /// Role changes are confirmed; a link with no role left is a removal, confirmed as such.
    private func askToChangeRoles(
        _ toggled: ContactRoles, keeping other: ContactRoles, _ state: inout State
    ) -> Effect<Action> {
        let roles = state.contact.roles.intersection(other).union(toggled)
        guard roles != state.contact.roles else { return .none }
        state.destination = .alert(roles.isEmpty ? .confirmRemove(state.contact) : .confirmRoleChange(roles, of: state.contact))
        return .none
    }
}

/// Said in the app's language (``Words/app``).
extension AlertState where Action == ContactDetailsFeature.Destination.Alert {
    /// In the web app's words.
    static func confirmRemove(_ contact: Contact) -> Self {
        let w = Words.app
        return AlertState(
            title: w("app.contact.removeConfirm", ["name": contact.fullName]),
            buttons: [.destructive(w("app.contact.remove"), action: .confirmRemove), .cancel(w("app.cancel"))])
    }

    /// The roles a contact would have, said as the web app's role labels say them.
    static func confirmRoleChange(_ roles: ContactRoles, of contact: Contact) -> Self {
        let name = contact.firstName
        let w = Words.app
        let message =
            switch (roles.isResponder, roles.isDependent) {
            case (true, true): w("app.roles.both", ["name": name])
            case (true, false): w("app.roles.responder", ["name": name])
            default: w("app.roles.dependent", ["name": name])
            }
        return AlertState(
            title: w("app.roles.confirm", ["name": name]), message: message,
            buttons: [ButtonState(w("app.roles.save"), action: .confirmRoleChange(roles)), .cancel(w("app.cancel"))])
    }
}
