import ComposableCore
import Foundation
import LifeSignalClient
import LifeSignalModels

/// The notification history: filtered by category, paged back through 30 days, read state,
/// "mark all read", and the live stream that brings new notifications (and status and
/// contact changes, passed up to the parent) while the app is open.
///
/// A notification about an incident drills down a navigation stack (`path`): the incident,
/// then, for the person it is about, their timeline.
public struct NotificationsFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var notifications: IdentifiedArrayOf<AppNotification> = []
        /// nil shows every category.
        public var filter: AppNotification.Category?
        public var unreadCount = 0
        /// Where the next page starts; nil when the last page is loaded.
        public var nextBefore: Date?
        public var isLoading = false
        public var isLoadingMore = false
        public var isLive = false
        @PresentationState public var destination: Destination.State?
        /// The screens drilled into from a notification.
        public var path = StackState<Path.State>()
        /// Who is reading (the incident screen tells its person from a responder).
        public var viewerID: UserID?

        public init(viewerID: UserID? = nil) {
            self.viewerID = viewerID
        }

        public var canLoadMore: Bool { nextBefore != nil && !isLoadingMore && !isLoading }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case task
        case pageResponse(Result<NotificationPage, UserFacingError>)
        case filterChanged(AppNotification.Category?)
        case loadMoreTriggered
        case nextPageResponse(Result<NotificationPage, UserFacingError>)
        case notificationTapped(NotificationID)
        case markReadResponse(NotificationID, Result<NotificationID, UserFacingError>)
        case markAllReadButtonTapped
        case markAllReadResponse(Result<Int, UserFacingError>)
        case streamEvent(StreamEvent)
        case streamEnded(UserFacingError?)
        case path(StackActionOf<Path>)
        case destination(PresentationAction<Destination.Action>)
        case delegate(Delegate)

        @CasePathable
        public enum Delegate: Equatable, Sendable {
            case statusChanged(CheckInStatus)
            case contactsChanged
        }
    }

    /// What this screen presents over itself: an alert when something failed.
    public typealias Destination = AlertDestination

    /// The screens of the stack.
    public struct Path: Reducer, Sendable {
        @CasePathable
        public enum State: Equatable, Sendable {
            case incident(IncidentFeature.State)
            case timeline(TimelineFeature.State)
        }

        @CasePathable
        public enum Action: Equatable, Sendable {
            case incident(IncidentFeature.Action)
            case timeline(TimelineFeature.Action)
        }

        public init() {}

        public var body: some ReducerOf<Self> {
            Scope(state: \.incident, action: \.incident) { IncidentFeature() }
            Scope(state: \.timeline, action: \.timeline) { TimelineFeature() }
        }
    }

    enum CancelID { case page, stream }

    static let pageSize = 50

    @Dependency(\.notificationClient) var notificationClient
    @Dependency(\.date) var date

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case .task:
                state.isLive = true
                return .merge(
                    loadFirstPage(&state),
                    .liveEvents(notificationClient, event: Action.streamEvent, ended: Action.streamEnded)
                        .cancellable(id: CancelID.stream, cancelInFlight: true)
                )

            case let .pageResponse(.success(page)):
                state.isLoading = false
                state.notifications = IdentifiedArray(page.items, uniquingIDsWith: { first, _ in first })
                state.unreadCount = page.unreadCount
                state.nextBefore = page.nextBefore
                return .none

            case let .pageResponse(.failure(error)):
                state.isLoading = false
                state.destination = .alert(.failure(error))
                return .none

            case let .filterChanged(filter):
                guard filter != state.filter else { return .none }
                state.filter = filter
                return loadFirstPage(&state)

            case .loadMoreTriggered:
                guard let before = state.nextBefore, state.canLoadMore else { return .none }
                state.isLoadingMore = true
                let query = NotificationQuery(category: state.filter, before: before, limit: Self.pageSize)
                return .catching(Action.nextPageResponse) { try await notificationClient.list(query) }
                    .cancellable(id: CancelID.page)

            case let .nextPageResponse(.success(page)):
                state.isLoadingMore = false
                for item in page.items where state.notifications[id: item.id] == nil {
                    state.notifications.append(item)
                }
                state.unreadCount = page.unreadCount
                state.nextBefore = page.nextBefore
                return .none

            case let .nextPageResponse(.failure(error)):
                state.isLoadingMore = false
                state.destination = .alert(.failure(error))
                return .none

            case let .notificationTapped(id):
                guard let notification = state.notifications[id: id] else { return .none }
                if let incidentID = notification.incidentID {
                    state.path.append(.incident(IncidentFeature.State(incidentID: incidentID, viewerID: state.viewerID)))
                }
                guard !notification.isRead else { return .none }
                state.notifications[id: id]?.readAt = date.now
                state.unreadCount = max(0, state.unreadCount - 1)
                return .catching({ .markReadResponse(id, $0) }) {
                    try await notificationClient.markRead(id)
                    return id
                }

            case .markReadResponse(_, .success):
                return .none

            case let .markReadResponse(id, .failure(error)):
                // Undo the optimistic read.
                if state.notifications[id: id]?.readAt != nil {
                    state.notifications[id: id]?.readAt = nil
                    state.unreadCount += 1
                }
                state.destination = .alert(.failure(error))
                return .none

            case .markAllReadButtonTapped:
                guard state.unreadCount > 0 else { return .none }
                return .catching(Action.markAllReadResponse) { try await notificationClient.markAllRead() }

            case .markAllReadResponse(.success):
                let now = date.now
                for id in state.notifications.ids where state.notifications[id: id]?.readAt == nil {
                    state.notifications[id: id]?.readAt = now
                }
                state.unreadCount = 0
                return .none

            case let .markAllReadResponse(.failure(error)):
                state.destination = .alert(.failure(error))
                return .none

            case let .streamEvent(.notification(notification)):
                guard state.notifications[id: notification.id] == nil else { return .none }
                if !notification.isRead { state.unreadCount += 1 }
                if state.filter == nil || state.filter == notification.category {
                    state.notifications.insert(notification, at: 0)
                }
                return .none

            case let .streamEvent(.status(status)):
                return .send(.delegate(.statusChanged(status)))

            case .streamEvent(.contactsChanged):
                return .send(.delegate(.contactsChanged))

            case let .streamEnded(error):
                state.isLive = false
                // A stream that ends without an error also takes down an alert about an earlier one.
                state.destination = error.map { .alert(.failure($0)) }
                return .none

            case .path(.element(id: _, action: .incident(.delegate(.timelineRequested)))):
                state.path.append(.timeline(TimelineFeature.State()))
                return .none

            case .path:
                return .none

            case .destination:
                return .none

            case .delegate:
                return .none
            }
        }
        .ifLet(\.$destination, action: \.destination)
        .forEach(\.path, action: \.path) {
            Path()
        }
    }

    private func loadFirstPage(_ state: inout State) -> Effect<Action> {
        state.isLoading = true
        state.isLoadingMore = false
        let query = NotificationQuery(category: state.filter, limit: Self.pageSize)
        return .catching(Action.pageResponse) { try await notificationClient.list(query) }
            .cancellable(id: CancelID.page, cancelInFlight: true)
    }
}
