import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Settings: the grace period, where I am reached (channels, this iPhone's push, reminders on
/// the device), where I'm signed in and my API tokens, and the record and tests of my setup
/// (timeline, preview, drill, check-in history).
///
/// The rhythm and the reminders are set on the check-in screen (`CheckInFeature`), the pause
/// on the profile (`ProfileFeature`): each lives once, where people look for it.
public struct SettingsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable, ShowsFailures {
        public var user: User
        /// The grace period as edited, in minutes (0–60), before it is saved.
        public var graceMinutes: Int
        /// Her quiet hours as edited (nil: off), before they are saved.
        public var quietHours: QuietHours?
        /// A change of the grace period or of watching only is on its way.
        public var isSaving = false
        public var channels: ChannelsFeature.State
        public var sessions: SessionsFeature.State
        /// Check-in links for buttons, sensors and shortcuts.
        public var deviceLinks = DeviceLinksFeature.State()
        public var push: PushState = .unknown
        /// Whether reminders may be shown by the device itself (they work offline).
        public var deviceRemindersAllowed: Bool?
        @PresentationState public var destination: Destination.State?

        public init(user: User, currentSessionID: SessionID? = nil, region: PhoneRegion = .unitedStates) {
            self.user = user
            self.graceMinutes = user.graceMinutes
            self.quietHours = user.quietHours
            self.channels = ChannelsFeature.State(region: region)
            self.sessions = SessionsFeature.State(currentID: currentSessionID)
        }

        public var graceChanged: Bool { graceMinutes != user.graceMinutes }
        public var quietHoursChanged: Bool { quietHours != user.quietHours }
    }

    /// This iPhone's Apple push.
    public enum PushState: Equatable, Sendable {
        case unknown, registering, on, declined
    }

    @CasePathable
    public enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case graceChanged(Int)
        case saveGraceButtonTapped
        case saveQuietHoursButtonTapped
        /// "I only watch over others": no rhythm, no reminders, never overdue; off again at any time.
        case watchOnlyToggled(Bool)
        case profileSaved(Result<User, UserFacingError>)
        case channels(ChannelsFeature.Action)
        case sessions(SessionsFeature.Action)
        case deviceLinks(DeviceLinksFeature.Action)
        case enablePushButtonTapped
        case pushResponse(Result<Channel?, UserFacingError>)
        case allowDeviceRemindersButtonTapped
        case deviceRemindersResponse(Result<Bool, UserFacingError>)
        case timelineButtonTapped
        case previewButtonTapped
        case drillButtonTapped
        case historyButtonTapped
        /// Days off: pauses planned ahead.
        case daysOffButtonTapped
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case userChanged(User)
            /// Her status after a pause that held was ended from days off.
            case statusChanged(CheckInStatus)
        }
    }

    public struct Destination: Reducer {
        @CasePathable
        public enum State: Equatable, Sendable {
            case timeline(TimelineFeature.State)
            case preview(PreviewFeature.State)
            case drill(DrillFeature.State)
            case history(CheckInHistoryFeature.State)
            case daysOff(DaysOffFeature.State)
            case alert(AlertState<Never>)
        }

        @CasePathable
        public enum Action: Equatable, Sendable {
            case timeline(TimelineFeature.Action)
            case preview(PreviewFeature.Action)
            case drill(DrillFeature.Action)
            case history(CheckInHistoryFeature.Action)
            case daysOff(DaysOffFeature.Action)
            case alert(Never)
        }

        public var body: some ReducerOf<Self> {
            Scope(state: \.timeline, action: \.timeline) { TimelineFeature() }
            Scope(state: \.preview, action: \.preview) { PreviewFeature() }
            Scope(state: \.drill, action: \.drill) { DrillFeature() }
            Scope(state: \.history, action: \.history) { CheckInHistoryFeature() }
            Scope(state: \.daysOff, action: \.daysOff) { DaysOffFeature() }
        }
    }

    @Dependency(\.userClient) var userClient
    @Dependency(\.settingsClient) var settingsClient
    @Dependency(\.date) var date
    @Dependency(\.pushRegistrationClient) var pushRegistration
    @Dependency(\.localNotificationClient) var localNotifications

    public init() {}

    public var body: some ReducerOf<Self> {
        BindingReducer()
        Scope(state: \.channels, action: \.channels) { ChannelsFeature() }
        Scope(state: \.sessions, action: \.sessions) { SessionsFeature() }
        Scope(state: \.deviceLinks, action: \.deviceLinks) { DeviceLinksFeature() }
        Reduce { state, action in
            switch action {
            case let .graceChanged(minutes):
                state.graceMinutes = min(max(minutes, 0), 60)
                return .none

            case let .watchOnlyToggled(on):
                guard on != state.user.watchOnly, !state.isSaving else { return .none }
                state.isSaving = true
                return .catching(Action.profileSaved) { try await userClient.updateProfile(ProfileChanges(watchOnly: on)) }

            case .saveGraceButtonTapped:
                guard state.graceChanged, !state.isSaving else { return .none }
                guard state.passes({ try Validation.grace($0.graceMinutes) }) else { return .none }
                state.isSaving = true
                let minutes = state.graceMinutes
                return .catching(Action.profileSaved) {
                    try await userClient.updateProfile(ProfileChanges(graceMinutes: minutes))
                }

            case .binding:
                return .none

            case .saveQuietHoursButtonTapped:
                guard state.quietHoursChanged, !state.isSaving else { return .none }
                if let quiet = state.quietHours, quiet.fromMinute == quiet.toMinute {
                    state.destination = .alert(
                        .failure(UserFacingError(message: Words.app("validation.quietHours"), reason: .invalid(field: "quietHours"))))
                    return .none
                }
                state.isSaving = true
                let changes =
                    state.quietHours.map { ProfileChanges(quietHours: $0) } ?? ProfileChanges(clearsQuietHours: true)
                return .catching(Action.profileSaved) { try await userClient.updateProfile(changes) }

            case let .profileSaved(.success(user)):
                state.isSaving = false
                state.user = user
                state.graceMinutes = user.graceMinutes
                state.quietHours = user.quietHours
                return .send(.delegate(.userChanged(user)))

            case let .profileSaved(.failure(error)):
                state.isSaving = false
                state.graceMinutes = state.user.graceMinutes
                state.quietHours = state.user.quietHours
                state.destination = .alert(.failure(error))
                return .none

            case .enablePushButtonTapped:
                guard state.push != .registering, state.push != .on else { return .none }
                state.push = .registering
                return .catching(Action.pushResponse) {
                    guard try await pushRegistration.requestAuthorization() else { return nil }
                    let token = try await pushRegistration.register()
                    // A device token needs no code: the app registers its own device.
                    return try await settingsClient.addChannel(ChannelRegistration(kind: .apns, address: token))
                }

            case let .pushResponse(.success(channel)):
                guard let channel else {
                    state.push = .declined
                    return .none
                }
                state.push = .on
                state.channels.channels[id: channel.id] = channel
                return .none

            case let .pushResponse(.failure(error)):
                state.push = .unknown
                state.destination = .alert(.failure(error))
                return .none

            case .allowDeviceRemindersButtonTapped:
                return .catching(Action.deviceRemindersResponse) { try await localNotifications.requestAuthorization() }

            case let .deviceRemindersResponse(.success(allowed)):
                state.deviceRemindersAllowed = allowed
                return .none

            case let .deviceRemindersResponse(.failure(error)):
                state.destination = .alert(.failure(error))
                return .none

            case .timelineButtonTapped:
                state.destination = .timeline(TimelineFeature.State())
                return .none

            case .previewButtonTapped:
                state.destination = .preview(PreviewFeature.State())
                return .none

            case .drillButtonTapped:
                state.destination = .drill(DrillFeature.State())
                return .none

            case .historyButtonTapped:
                state.destination = .history(CheckInHistoryFeature.State())
                return .none

            case .daysOffButtonTapped:
                // Offered first: from tomorrow, for two days.
                let now = date.now
                state.destination = .daysOff(
                    DaysOffFeature.State(from: now.addingTimeInterval(86400), until: now.addingTimeInterval(3 * 86400)))
                return .none

            case let .destination(.presented(.daysOff(.delegate(.statusChanged(status))))):
                // The check-in screen and the kept profile learn that she is no longer paused.
                return .send(.delegate(.statusChanged(status)))

            case .channels, .sessions, .deviceLinks, .destination, .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination) {
            Destination()
        }
    }
}
