import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct NotificationsFeatureTests {
    nonisolated static let ping = Fixtures.notification(1, .pingReceived, minutesAgo: 1)
    nonisolated static let alert = Fixtures.notification(2, .incidentOpened, minutesAgo: 2)
    nonisolated static let added = Fixtures.notification(3, .contactAdded, minutesAgo: 3, read: true)
    nonisolated static let reminder = Fixtures.notification(4, .reminder, minutesAgo: 90)
    nonisolated static let firstPage = NotificationPage(items: [ping, alert, added], unreadCount: 3, nextBefore: added.createdAt)

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    @Test func loadsThePageAndFollowsTheLiveStream() async {
        let events = AsyncThrowingStream.makeStream(of: StreamEvent.self, throwing: (any Error).self)
        let newOne = Fixtures.notification(9, .manualAlert, minutesAgo: 0)
        let status = Fixtures.status(of: Fixtures.id(3), lastCheckIn: nil, deadline: Fixtures.now, state: .nonResponsive)
        let store = TestStore(initialState: NotificationsFeature.State()) {
            NotificationsFeature()
        } withDependencies: {
            $0.notificationClient.list = { query in
                #expect(query == NotificationQuery(limit: 50))
                return Self.firstPage
            }
            $0.notificationClient.events = { events.stream }
        }

        let task = await store.send(.task) {
            $0.isLive = true
            $0.isLoading = true
        }
        await store.receive(.pageResponse(.success(Self.firstPage))) {
            $0.isLoading = false
            $0.notifications = [Self.ping, Self.alert, Self.added]
            $0.unreadCount = 3
            $0.nextBefore = Self.added.createdAt
        }
        events.continuation.yield(.notification(newOne))
        await store.receive(.streamEvent(.notification(newOne))) {
            $0.notifications.insert(newOne, at: 0)
            $0.unreadCount = 4
        }
        events.continuation.yield(.status(status))
        await store.receive(.streamEvent(.status(status)))
        await store.receive(.delegate(.statusChanged(status)))
        events.continuation.yield(.contactsChanged)
        await store.receive(.streamEvent(.contactsChanged))
        await store.receive(.delegate(.contactsChanged))
        // The same notification twice (a reconnect) is shown once.
        events.continuation.yield(.notification(newOne))
        await store.receive(.streamEvent(.notification(newOne)))
        await task.cancel()
    }

    @Test func streamFailureIsShown() async {
        let store = TestStore(initialState: NotificationsFeature.State()) {
            NotificationsFeature()
        } withDependencies: {
            $0.notificationClient.list = { _ in Self.firstPage }
            $0.notificationClient.events = { AsyncThrowingStream { $0.finish(throwing: Fixtures.serverError) } }
        }
        await store.send(.task) {
            $0.isLive = true
            $0.isLoading = true
        }
        await store.receive(\.pageResponse.success) {
            $0.isLoading = false
            $0.notifications = [Self.ping, Self.alert, Self.added]
            $0.unreadCount = 3
            $0.nextBefore = Self.added.createdAt
        }
        await store.receive(.streamEnded(Fixtures.serverFailure)) {
            $0.isLive = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }

    @Test func filterReloadsByCategoryAndPagingAppends() async {
        let queries = LockIsolated<[NotificationQuery]>([])
        let older = NotificationPage(items: [Self.reminder], unreadCount: 3, nextBefore: nil)
        let alerts = NotificationPage(items: [Self.alert], unreadCount: 3, nextBefore: nil)
        var state = NotificationsFeature.State()
        state.notifications = [Self.ping, Self.alert, Self.added]
        state.unreadCount = 3
        state.nextBefore = Self.added.createdAt
        let store = TestStore(initialState: state) {
            NotificationsFeature()
        } withDependencies: {
            $0.notificationClient.list = { query in
                queries.withValue { $0.append(query) }
                return query.category == .alerts ? alerts : older
            }
        }
        await store.send(.loadMoreTriggered) { $0.isLoadingMore = true }
        await store.receive(.nextPageResponse(.success(older))) {
            $0.isLoadingMore = false
            $0.notifications.append(Self.reminder)
            $0.nextBefore = nil
        }
        // The last page is loaded: no more requests.
        await store.send(.loadMoreTriggered)
        await store.send(.filterChanged(.alerts)) {
            $0.filter = .alerts
            $0.isLoading = true
        }
        await store.receive(.pageResponse(.success(alerts))) {
            $0.isLoading = false
            $0.notifications = [Self.alert]
        }
        #expect(
            queries.value == [
                NotificationQuery(before: Self.added.createdAt, limit: 50),
                NotificationQuery(category: .alerts, limit: 50),
            ])
    }

    @Test func pageFailuresAreShown() async {
        var state = NotificationsFeature.State()
        state.nextBefore = Fixtures.now
        let store = TestStore(initialState: state) {
            NotificationsFeature()
        } withDependencies: {
            $0.notificationClient.list = { _ in throw Fixtures.serverError }
        }
        await store.send(.loadMoreTriggered) { $0.isLoadingMore = true }
        await store.receive(.nextPageResponse(.failure(Fixtures.serverFailure))) {
            $0.isLoadingMore = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        await store.send(.filterChanged(.pings)) {
            $0.filter = .pings
            $0.isLoading = true
        }
        await store.receive(.pageResponse(.failure(Fixtures.serverFailure))) {
            $0.isLoading = false
        }
    }

    @Test func tappingMarksReadAndFailureUndoesIt() async {
        let calls = LockIsolated(0)
        var state = NotificationsFeature.State()
        state.notifications = [Self.ping, Self.alert]
        state.unreadCount = 2
        let store = TestStore(initialState: state) {
            NotificationsFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.notificationClient.markRead = { id in
                calls.withValue { $0 += 1 }
                if id == Self.alert.id { throw Fixtures.serverError }
            }
        }
        await store.send(.notificationTapped(Self.ping.id)) {
            $0.notifications[id: Self.ping.id]?.readAt = Fixtures.now
            $0.unreadCount = 1
        }
        await store.receive(.markReadResponse(Self.ping.id, .success(Self.ping.id)))
        // Already read: no request.
        await store.send(.notificationTapped(Self.ping.id))
        await store.send(.notificationTapped(Self.alert.id)) {
            $0.notifications[id: Self.alert.id]?.readAt = Fixtures.now
            $0.unreadCount = 0
        }
        await store.receive(.markReadResponse(Self.alert.id, .failure(Fixtures.serverFailure))) {
            $0.notifications[id: Self.alert.id]?.readAt = nil
            $0.unreadCount = 1
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(calls.value == 2)
    }

    @Test func markAllRead() async {
        var state = NotificationsFeature.State()
        state.notifications = [Self.ping, Self.alert, Self.added]
        state.unreadCount = 2
        let store = TestStore(initialState: state) {
            NotificationsFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
            $0.notificationClient.markAllRead = { 2 }
        }
        await store.send(.markAllReadButtonTapped)
        await store.receive(.markAllReadResponse(.success(2))) {
            $0.notifications[id: Self.ping.id]?.readAt = Fixtures.now
            $0.notifications[id: Self.alert.id]?.readAt = Fixtures.now
            $0.unreadCount = 0
        }
        // Nothing unread: no request.
        await store.send(.markAllReadButtonTapped)
    }

    @Test func markAllReadFailureIsShown() async {
        var state = NotificationsFeature.State()
        state.notifications = [Self.ping]
        state.unreadCount = 1
        let store = TestStore(initialState: state) {
            NotificationsFeature()
        } withDependencies: {
            $0.notificationClient.markAllRead = { throw Fixtures.offline }
        }
        await store.send(.markAllReadButtonTapped)
        await store.receive(.markAllReadResponse(.failure(Fixtures.offlineFailure))) {
            $0.destination = .alert(.failure(Fixtures.offlineFailure))
        }
        #expect(store.state.unreadCount == 1)
    }

    @Test func liveNotificationOutsideTheFilterOnlyCounts() async {
        var state = NotificationsFeature.State()
        state.filter = .contacts
        let store = TestStore(initialState: state) { NotificationsFeature() }
        await store.send(.streamEvent(.notification(Self.ping))) {
            $0.unreadCount = 1
        }
    }
}
