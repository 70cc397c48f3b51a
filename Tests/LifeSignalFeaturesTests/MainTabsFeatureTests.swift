import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules
import Testing

@testable import LifeSignalFeatures

@MainActor
struct MainTabsFeatureTests {
    let clock = TestClock()

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    @Test func tabsAndBadges() async {
        var state = MainTabsFeature.State(user: Fixtures.user)
        state.responders = RespondersFeature.State(responders: [RespondersFeatureTests.bob, RespondersFeatureTests.alice])
        state.dependents = DependentsFeature.State(dependents: [DependentsFeatureTests.missed, DependentsFeatureTests.okSoon])
        state.notifications.unreadCount = 7
        let store = TestStore(initialState: state) { MainTabsFeature() }

        #expect(store.state.badge(.responders) == 1)
        #expect(store.state.badge(.dependents) == 1)
        #expect(store.state.badge(.notifications) == 7)
        #expect(store.state.badge(.home) == nil)
        await store.send(.tabSelected(.notifications)) { $0.selectedTab = .notifications }
    }

    @Test func aProfileChangeReachesEveryTab() async {
        var changed = Fixtures.user
        changed.firstName = "Augusta"
        changed.schedule = .interval(seconds: 8 * 3600)
        changed.reminders = .both
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) { MainTabsFeature() }
        await store.send(.home(.delegate(.userChanged(changed)))) {
            $0.user = changed
            $0.home.user = changed
            $0.profile.user = changed
            $0.checkIn.checkInInterval = 8 * 3600
            $0.checkIn.reminders = .both
            $0.checkIn.nextCheckInDue = Deadline.of(changed)
        }
        var renamed = changed
        renamed.lastName = "King"
        await store.send(.profile(.delegate(.userChanged(renamed)))) {
            $0.user = renamed
            $0.home.user = renamed
            $0.profile.user = renamed
        }
        // A daily call reaches the check-in screen too, so its sheet opens on it.
        var called = renamed
        called.schedule = .dailyCall(DailyCall(hour: 9, minute: 0, timeZone: "Europe/London"))
        await store.send(.profile(.delegate(.userChanged(called)))) {
            $0.user = called
            $0.home.user = called
            $0.profile.user = called
            $0.checkIn.checkInInterval = 86400
            $0.checkIn.dailyCall = DailyCall(hour: 9, minute: 0, timeZone: "Europe/London")
            $0.checkIn.nextCheckInDue = Deadline.of(called)
        }
    }

    @Test func turningLocationSharingOnReachesTheSOSButton() async {
        var sharing = Fixtures.user
        sharing.shareLocation = true
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) { MainTabsFeature() }
        #expect(store.state.alert.sharesLocation == false)
        await store.send(.profile(.delegate(.userChanged(sharing)))) {
            $0.user = sharing
            $0.home.user = sharing
            $0.profile.user = sharing
            $0.alert.sharesLocation = true
        }
        #expect(MainTabsFeature.State(user: sharing).alert.sharesLocation)
    }

    @Test func answeringAPingMovesTheCountdown() async {
        let result = Fixtures.checkInResult(CheckInID(UUID(0)), at: Fixtures.now, interval: 86400)
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) { MainTabsFeature() }
        await store.send(.responders(.delegate(.checkedIn(result)))) {
            $0.checkIn.lastCheckIn = Fixtures.now
            $0.checkIn.nextCheckInDue = Fixtures.now.addingTimeInterval(86400)
        }
    }

    @Test func liveStatusUpdatesMeAndMyDependents() async {
        var state = MainTabsFeature.State(user: Fixtures.user)
        state.dependents = DependentsFeature.State(dependents: [DependentsFeatureTests.okLater, DependentsFeatureTests.okSoon])
        let store = TestStore(initialState: state) { MainTabsFeature() }

        let mine = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(3600), state: .alert)
        await store.send(.notifications(.delegate(.statusChanged(mine)))) {
            $0.checkIn.lastCheckIn = Fixtures.now
            $0.checkIn.nextCheckInDue = Fixtures.now.addingTimeInterval(3600)
            $0.checkIn.statusState = .alert
            $0.alert.isAlertActive = true
        }
        let theirs = Fixtures.status(
            of: DependentsFeatureTests.okLater.id, lastCheckIn: nil, deadline: Fixtures.now, state: .nonResponsive)
        await store.send(.notifications(.delegate(.statusChanged(theirs)))) {
            var missed = DependentsFeatureTests.okLater
            missed.status = theirs
            $0.dependents.list.contacts = [missed, DependentsFeatureTests.okSoon]
        }
        #expect(store.state.badge(.dependents) == 1)
    }

    @Test func anAlertRaisedElsewhereShowsOnTheAlertButton() async {
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) { MainTabsFeature() }
        let status = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(3600), state: .alert)
        await store.send(.checkIn(.statusResponse(.success(status)))) {
            $0.checkIn.lastCheckIn = Fixtures.now
            $0.checkIn.nextCheckInDue = Fixtures.now.addingTimeInterval(3600)
            $0.checkIn.statusState = .alert
            $0.alert.isAlertActive = true
        }
        let cleared = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(3600))
        await store.send(.alert(.delegate(.alertCleared(cleared)))) {
            $0.checkIn.statusState = .ok
            $0.alert.isAlertActive = false
        }
    }

    @Test func aContactChangeInOneListReloadsTheOther() async {
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) {
            MainTabsFeature()
        } withDependencies: {
            $0.contactClient.list = { _ in
                ContactLists(responders: [RespondersFeatureTests.alice], dependents: [DependentsFeatureTests.okSoon])
            }
        }
        await store.send(.responders(.delegate(.contactsChanged)))
        await store.receive(.dependents(.list(.task))) { $0.dependents.list.isLoading = true }
        await store.receive(\.dependents.list.contactsResponse.success) {
            $0.dependents.list.isLoading = false
            $0.dependents.list.contacts = [DependentsFeatureTests.okSoon]
        }
        await store.send(.dependents(.delegate(.contactsChanged)))
        await store.receive(.responders(.list(.task))) { $0.responders.list.isLoading = true }
        await store.receive(\.responders.list.contactsResponse.success) {
            $0.responders.list.isLoading = false
            $0.responders.list.contacts = [RespondersFeatureTests.alice]
        }
    }

    @Test func signingOutAndDeletingTellTheRoot() async {
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) { MainTabsFeature() }
        await store.send(.profile(.delegate(.signedOut)))
        await store.receive(.delegate(.signedOut))
        await store.send(.profile(.delegate(.accountDeleted)))
        await store.receive(.delegate(.accountDeleted))
    }

    @Test func taskLoadsEveryTabForTheBadges() async {
        let ping = NotificationsFeatureTests.ping
        let store = TestStore(initialState: MainTabsFeature.State(user: Fixtures.user)) {
            MainTabsFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
            $0.date = .constant(Fixtures.now)
            $0.contactClient.contactCode = { .preview }
            $0.contactClient.list = { _ in
                ContactLists(
                    responders: [RespondersFeatureTests.bob], dependents: [DependentsFeatureTests.sos])
            }
            $0.checkInClient.status = {
                Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(86400))
            }
            $0.checkInClient.pending = { [] }
            $0.reachabilityClient.updates = { AsyncStream { _ in } }
            $0.notificationClient.list = { _ in NotificationPage(items: [ping], unreadCount: 4, nextBefore: nil) }
            $0.notificationClient.events = { AsyncThrowingStream { _ in } }
        }
        // An integration test: only the badges matter here, every step is tested in its feature.
        store.exhaustivity = .off
        await store.send(.task)
        await store.receive(\.notifications.pageResponse.success)
        await store.skipReceivedActions(strict: false)
        #expect(store.state.badge(.responders) == 1)
        #expect(store.state.badge(.dependents) == 1)
        #expect(store.state.badge(.notifications) == 4)
        #expect(store.state.home.contactCode == .preview)
        #expect(store.state.checkIn.nextCheckInDue == Fixtures.now.addingTimeInterval(86400))
        await store.skipInFlightEffects()
    }
}
