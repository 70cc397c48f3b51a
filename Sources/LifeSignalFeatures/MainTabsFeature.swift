import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// The signed-in app: one tab per area, their badges, and the glue between them — a change
/// of the person's profile reaches every tab, a contact change reloads both lists, a check-in
/// by answering a ping moves the countdown.
public struct MainTabsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var selectedTab: Tab = .home
        public var user: User
        public var home: HomeFeature.State
        public var checkIn: CheckInFeature.State
        public var alert: AlertFeature.State
        public var responders = RespondersFeature.State()
        public var dependents = DependentsFeature.State()
        public var notifications: NotificationsFeature.State
        public var profile: ProfileFeature.State

        /// - Parameters:
        ///   - status: the person's last known status, applied over what `user` says.
        ///   - offline: opened from what the device kept, the server not reachable: check-ins
        ///     queue until the network returns.
        public init(user: User, status: CheckInStatus? = nil, offline: Bool = false, selectedTab: Tab = .home) {
            self.selectedTab = selectedTab
            self.user = user
            self.home = HomeFeature.State(user: user)
            self.checkIn = CheckInFeature.State(user: user)
            self.alert = AlertFeature.State(sharesLocation: user.shareLocation)
            self.notifications = NotificationsFeature.State(viewerID: user.id)
            self.profile = ProfileFeature.State(user: user)
            if let status { apply(status) }
            if offline { checkIn.pending.isOnline = false }
        }

        /// The number on a tab's badge; nil shows none.
        public func badge(_ tab: Tab) -> Int? {
            let count =
                switch tab {
                case .responders: responders.pendingPingCount
                case .dependents: dependents.attentionCount
                case .notifications: notifications.unreadCount
                case .home, .checkIn, .profile: 0
                }
            return count > 0 ? count : nil
        }

        /// Every tab sees the same person after a change made in any of them.
        mutating func apply(_ user: User) {
            self.user = user
            home.user = user
            profile.user = user
            alert.sharesLocation = user.shareLocation
            checkIn.checkInInterval = TimeInterval(user.schedule.nominalSeconds)
            checkIn.daily = CheckInFeature.State.daily(user.schedule)
            checkIn.dailyCall = user.schedule.dailyCall
            checkIn.reminders = user.reminders
            checkIn.lastCheckIn = user.lastCheckInAt
            checkIn.nextCheckInDue = Deadline.of(user)
            // The server's rhythm as of now: a save still on its way has nothing older to put back.
            checkIn.rhythmBeforeSave = nil
        }

        mutating func apply(_ status: CheckInStatus) {
            if status.userID == user.id {
                checkIn.apply(status)
                alert.isAlertActive = status.state == .alert
            } else {
                dependents.list.update(status.userID) { $0.status = status }
            }
        }
    }

    public enum Tab: String, CaseIterable, Equatable, Sendable {
        case home, checkIn, responders, dependents, notifications, profile
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case tabSelected(Tab)
        case home(HomeFeature.Action)
        case checkIn(CheckInFeature.Action)
        case alert(AlertFeature.Action)
        case responders(RespondersFeature.Action)
        case dependents(DependentsFeature.Action)
        case notifications(NotificationsFeature.Action)
        case profile(ProfileFeature.Action)
        /// A push about an incident was opened (the app delegate passes its `incident` field):
        /// the incident screen opens on the notifications stack.
        case pushOpened(IncidentID)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case signedOut
            case accountDeleted
        }
    }

    public init() {}

    public var body: some ReducerOf<Self> {
        Scope(state: \.home, action: \.home) { HomeFeature() }
        Scope(state: \.checkIn, action: \.checkIn) { CheckInFeature() }
        Scope(state: \.alert, action: \.alert) { AlertFeature() }
        Scope(state: \.responders, action: \.responders) { RespondersFeature() }
        Scope(state: \.dependents, action: \.dependents) { DependentsFeature() }
        Scope(state: \.notifications, action: \.notifications) { NotificationsFeature() }
        Scope(state: \.profile, action: \.profile) { ProfileFeature() }

        Reduce { state, action in
            switch action {
            case .task:
                // Badges need the lists and the unread count before their tabs are opened.
                return .merge(
                    .send(.home(.task)),
                    .send(.checkIn(.appBecameActive)),
                    .send(.responders(.list(.task))),
                    .send(.dependents(.list(.task))),
                    .send(.notifications(.task))
                )

            case let .tabSelected(tab):
                state.selectedTab = tab
                return .none

            case let .pushOpened(incidentID):
                state.selectedTab = .notifications
                state.notifications.path.append(.incident(IncidentFeature.State(incidentID: incidentID, viewerID: state.user.id)))
                return .none

            case let .home(.delegate(.userChanged(user))),
                let .checkIn(.delegate(.scheduleChanged(user))),
                let .profile(.delegate(.userChanged(user))):
                state.apply(user)
                return .none

            case let .responders(.delegate(.checkedIn(result))), let .dependents(.delegate(.checkedIn(result))):
                state.apply(result.status)
                return .none

            case .responders(.delegate(.alertRaised)):
                // "I need help" to a ping: the alert is on, as if raised with the SOS button.
                state.alert.isAlertActive = true
                return .none

            case let .alert(.delegate(.alertCleared(status))):
                state.apply(status)
                return .none

            case let .checkIn(.statusResponse(.success(status))):
                // The check-in tab loads my status; an SOS raised elsewhere (the web app, the
                // CLI) shows here as an active alert to clear.
                state.alert.isAlertActive = status.state == .alert
                return .none

            case let .notifications(.delegate(.statusChanged(status))),
                let .profile(.delegate(.statusChanged(status))):
                state.apply(status)
                return .none

            case .responders(.delegate(.contactsChanged)):
                return .send(.dependents(.list(.task)))

            case .dependents(.delegate(.contactsChanged)):
                return .send(.responders(.list(.task)))

            case .notifications(.delegate(.contactsChanged)):
                return .merge(.send(.responders(.list(.task))), .send(.dependents(.list(.task))))

            case .profile(.delegate(.signedOut)):
                return .send(.delegate(.signedOut))

            case .profile(.delegate(.accountDeleted)):
                return .send(.delegate(.accountDeleted))

            case .home, .checkIn, .alert, .responders, .dependents, .notifications, .profile, .delegate:
                return .none
            }
        }
    }
}
