import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

/// Drilling down from a notification: the incident it is about, then (for the person it is
/// about) their timeline, on a navigation stack.
@MainActor
struct NotificationNavigationTests {
    nonisolated static let ada = IncidentFeatureTests.ada

    nonisolated static let missed = AppNotification(
        id: NotificationID(UUID(801)), recipientID: ada, type: .incidentOpened, subjectUserID: ada,
        incidentID: IncidentFeatureTests.incidentID, title: "Bob Test and Cy Test have been alerted", body: "",
        createdAt: Fixtures.now, readAt: Fixtures.now)
    nonisolated static let ping = Fixtures.notification(2, .pingReceived, minutesAgo: 5, read: true)

    @Test func aNotificationAboutAnIncidentOpensItAndThenMyTimeline() async {
        var initial = NotificationsFeature.State(viewerID: Self.ada)
        initial.notifications = [Self.missed, Self.ping]
        let store = TestStore(initialState: initial) { NotificationsFeature() }

        // A ping leads nowhere; an incident's notification pushes its screen.
        await store.send(.notificationTapped(Self.ping.id))
        await store.send(.notificationTapped(Self.missed.id)) {
            $0.path.append(.incident(IncidentFeature.State(incidentID: IncidentFeatureTests.incidentID, viewerID: Self.ada)))
        }
        let report = IncidentFeatureTests.open
        await store.send(.path(.element(id: 0, action: .incident(.reportResponse(.success(report)))))) {
            $0.path[id: 0] = .incident(
                modify(IncidentFeature.State(incidentID: IncidentFeatureTests.incidentID, viewerID: Self.ada)) {
                    $0.report = report
                    $0.personName = "Ada"
                })
        }
        // It is mine: my timeline is one step further.
        await store.send(.path(.element(id: 0, action: .incident(.timelineButtonTapped))))
        await store.receive(\.path[id: 0].incident.delegate.timelineRequested) {
            $0.path.append(.timeline(TimelineFeature.State()))
        }
        #expect(store.state.path.ids == [0, 1])
        await store.send(.path(.popFrom(id: 0))) { $0.path.pop(from: 0) }
    }

    @Test func aResponderCannotOpenSomeoneElsesTimeline() async {
        var initial = NotificationsFeature.State(viewerID: IncidentFeatureTests.me)
        initial.notifications = [Self.missed]
        let store = TestStore(initialState: initial) { NotificationsFeature() }
        await store.send(.notificationTapped(Self.missed.id)) {
            $0.path.append(
                .incident(
                    IncidentFeature.State(
                        incidentID: IncidentFeatureTests.incidentID, viewerID: IncidentFeatureTests.me)))
        }
        let report = IncidentFeatureTests.open
        await store.send(.path(.element(id: 0, action: .incident(.reportResponse(.success(report)))))) {
            $0.path[id: 0] = .incident(
                modify(
                    IncidentFeature.State(
                        incidentID: IncidentFeatureTests.incidentID, viewerID: IncidentFeatureTests.me)
                ) {
                    $0.report = report
                    $0.personName = "Ada"
                })
        }
        await store.send(.path(.element(id: 0, action: .incident(.timelineButtonTapped))))
        #expect(store.state.path.count == 1)
    }
}

@MainActor
struct PushOpenedTests {
    @Test func openingAPushAboutAnIncidentShowsIt() async {
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) { MainTabsFeature() }
        await store.send(.pushOpened(IncidentFeatureTests.incidentID)) {
            $0.selectedTab = .notifications
            $0.notifications.path.append(
                .incident(
                    IncidentFeature.State(
                        incidentID: IncidentFeatureTests.incidentID, viewerID: Fixtures.user.id)))
        }
    }
}
