import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// My profile: names and emergency note, avatar, phone number (changed with a code), a pause
/// ("travelling with company until…"), downloading my data, signing out and deleting the account —
/// both confirmed first.
public struct ProfileFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var user: User
        /// When the pause that holds now ends; nil when none holds.
        public var pausedUntil: Date?
        /// The end of the pause last asked for, for the question an open alert raises.
        public var pendingPause: Date?
        public var isBusy = false
        /// "Download my data".
        public var dataExport = DataExportFeature.State()
        @PresentationState public var destination: Destination.State?

        public init(user: User, pausedUntil: Date? = nil) {
            self.user = user
            self.pausedUntil = pausedUntil
        }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case editButtonTapped
        case changePhoneButtonTapped
        case settingsButtonTapped
        case signOutButtonTapped
        case signOutResponse(Result<UserID, UserFacingError>)
        case avatarPicked(Data)
        case removeAvatarButtonTapped
        /// Whether I have an avatar after the change.
        case avatarResponse(Result<Bool, UserFacingError>)
        case pauseUntilPicked(Date)
        case resumeButtonTapped
        case pauseResponse(Result<CheckInStatus, UserFacingError>)
        case deleteAccountButtonTapped
        case deleteAccountResponse(Result<UserID, UserFacingError>)
        case dataExport(DataExportFeature.Action)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case userChanged(User)
            case statusChanged(CheckInStatus)
            case signedOut
            case accountDeleted
        }
    }

    public struct Destination: Reducer {
        @CasePathable
        public enum State: Equatable, Sendable {
            case editProfile(EditProfileFeature.State)
            case phoneChange(PhoneChangeFeature.State)
            case settings(SettingsFeature.State)
            case alert(AlertState<Alert>)
        }

        @CasePathable
        public enum Action: Equatable, Sendable {
            case editProfile(EditProfileFeature.Action)
            case phoneChange(PhoneChangeFeature.Action)
            case settings(SettingsFeature.Action)
            case alert(Alert)
        }

        /// What an alert's button confirms.
        public enum Alert: Equatable, Sendable {
            case confirmSignOut
            case confirmDeleteAccount
            /// Pausing until the date while an alert about a missed check-in is open, saying
            /// what becomes of it.
            case pause(until: Date, OpenIncidentChoice)
        }

        public var body: some ReducerOf<Self> {
            Scope(state: \.editProfile, action: \.editProfile) {
                EditProfileFeature()
            }
            Scope(state: \.phoneChange, action: \.phoneChange) {
                PhoneChangeFeature()
            }
            Scope(state: \.settings, action: \.settings) {
                SettingsFeature()
            }
        }
    }

    @Dependency(\.authClient) var authClient
    @Dependency(\.userClient) var userClient
    @Dependency(\.date) var date

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.dataExport, action: \.dataExport) { DataExportFeature() }
        Reduce { state, action in
            switch action {
            case .editButtonTapped:
                state.destination = .editProfile(EditProfileFeature.State(user: state.user))
                return .none

            case .changePhoneButtonTapped:
                state.destination = .phoneChange(PhoneChangeFeature.State())
                return .none

            case .settingsButtonTapped:
                state.destination = .settings(SettingsFeature.State(user: state.user))
                return .none

            case let .destination(.presented(.settings(.delegate(.userChanged(user))))):
                // Settings stay open; the rest of the app learns the new grace period.
                state.user = user
                return .send(.delegate(.userChanged(user)))

            case let .destination(.presented(.settings(.delegate(.statusChanged(status))))):
                state.pausedUntil = status.pausedUntil
                return .send(.delegate(.statusChanged(status)))

            case .signOutButtonTapped:
                state.destination = .alert(.confirmSignOut)
                return .none

            case .destination(.presented(.alert(.confirmSignOut))):
                state.isBusy = true
                let id = state.user.id
                return .catching(Action.signOutResponse) {
                    try await authClient.signOut()
                    return id
                }

            case .signOutResponse(.success):
                state.isBusy = false
                return .send(.delegate(.signedOut))

            case let .avatarPicked(image):
                guard !state.isBusy else { return .none }
                guard state.passes({ _ in _ = try Validation.avatar([UInt8](image)) }) else { return .none }
                state.isBusy = true
                return .catching(Action.avatarResponse) {
                    try await userClient.uploadAvatar(image)
                    return true
                }

            case .removeAvatarButtonTapped:
                guard state.user.hasAvatar, !state.isBusy else { return .none }
                state.isBusy = true
                return .catching(Action.avatarResponse) {
                    try await userClient.deleteAvatar()
                    return false
                }

            case let .avatarResponse(.success(hasAvatar)):
                state.isBusy = false
                state.user.hasAvatar = hasAvatar
                return .send(.delegate(.userChanged(state.user)))

            case let .pauseUntilPicked(until):
                guard !state.isBusy else { return .none }
                guard state.passes({ _ in try Validation.pause(from: date.now, until: until, now: date.now) }) else {
                    return .none
                }
                return setPause(until, &state)

            case .resumeButtonTapped:
                guard state.pausedUntil != nil, !state.isBusy else { return .none }
                return setPause(nil, &state)

            case let .pauseResponse(.success(status)):
                state.isBusy = false
                state.pausedUntil = status.pausedUntil
                return .send(.delegate(.statusChanged(status)))

            case let .pauseResponse(.failure(error)) where error.reason == .refused(.incidentOpen):
                // Her responders were alerted: she says whether pausing ends that alert.
                state.isBusy = false
                if let until = state.pendingPause { state.destination = .alert(.pauseWhileAlertOpen(until: until)) }
                return .none

            case let .destination(.presented(.alert(.pause(until, choice)))):
                state.isBusy = true
                return .catching(Action.pauseResponse) { try await userClient.setPause(until, choice) }

            case let .avatarResponse(.failure(error)), let .pauseResponse(.failure(error)):
                state.isBusy = false
                state.destination = .alert(.failure(error))
                return .none

            case .deleteAccountButtonTapped:
                state.destination = .alert(.confirmDeleteAccount)
                return .none

            case .destination(.presented(.alert(.confirmDeleteAccount))):
                state.isBusy = true
                let id = state.user.id
                return .catching(Action.deleteAccountResponse) {
                    try await userClient.deleteAccount()
                    return id
                }

            case .deleteAccountResponse(.success):
                state.isBusy = false
                return .send(.delegate(.accountDeleted))

            case let .signOutResponse(.failure(error)), let .deleteAccountResponse(.failure(error)):
                state.isBusy = false
                state.destination = .alert(.failure(error))
                return .none

            case let .destination(.presented(.editProfile(.delegate(.saved(user))))),
                let .destination(.presented(.phoneChange(.delegate(.phoneChanged(user))))):
                state.destination = nil
                state.user = user
                return .send(.delegate(.userChanged(user)))

            case .destination(.presented(.editProfile(.delegate(.cancelled)))),
                .destination(.presented(.phoneChange(.delegate(.cancelled)))):
                state.destination = nil
                return .none

            case .dataExport, .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            Destination()
        }
    }

    private func setPause(_ until: Date?, _ state: inout State) -> Effect<Action> {
        state.isBusy = true
        state.pendingPause = until
        return .catching(Action.pauseResponse) { try await userClient.setPause(until, nil) }
    }
}

/// Said in the app's language (``Words/app``).
extension AlertState where Action == ProfileFeature.Destination.Alert {
    static var confirmSignOut: Self {
        let w = Words.app
        return AlertState(
            title: w("app.signOut.confirm"),
            buttons: [ButtonState(w("app.signOut"), action: .confirmSignOut), .cancel(w("app.cancel"))])
    }

    /// Pausing until `until` while her responders are alerted (``AlertState/pausingWhileAlertOpen(_:)``).
    static func pauseWhileAlertOpen(until: Date) -> Self {
        .pausingWhileAlertOpen { .pause(until: until, $0) }
    }

    /// In the web app's words.
    static var confirmDeleteAccount: Self {
        let w = Words.app
        return AlertState(
            title: w("app.delete.confirm"), message: w("app.delete.message"),
            buttons: [.destructive(w("app.delete"), action: .confirmDeleteAccount), .cancel(w("app.cancel"))])
    }
}
