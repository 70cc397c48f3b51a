import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct SettingsFeatureTests {
    @Test func theGracePeriodIsKeptInBoundsAndSaved() async {
        let saved = modify(Fixtures.user) { $0.graceMinutes = 25 }
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) {
            SettingsFeature()
        } withDependencies: {
            $0.userClient.updateProfile = { changes in
                #expect(changes == ProfileChanges(graceMinutes: 25))
                return saved
            }
        }
        await store.send(.graceChanged(90)) { $0.graceMinutes = 60 }
        await store.send(.graceChanged(25)) { $0.graceMinutes = 25 }
        await store.send(.saveGraceButtonTapped) { $0.isSaving = true }
        await store.receive(\.profileSaved.success) {
            $0.isSaving = false
            $0.user = saved
        }
        await store.receive(\.delegate.userChanged)
        // Unchanged: nothing to save.
        await store.send(.saveGraceButtonTapped)
    }

    @Test func thisIPhoneIsRegisteredForPushAsAChannel() async {
        let token = String(repeating: "0f", count: 32)
        let channel = Channel(
            id: ChannelID(UUID(500)), userID: Fixtures.user.id, kind: .apns, address: token, priority: 1,
            createdAt: Fixtures.now, verifiedAt: Fixtures.now)
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) {
            SettingsFeature()
        } withDependencies: {
            $0.pushRegistrationClient.requestAuthorization = { true }
            $0.pushRegistrationClient.register = { token }
            $0.settingsClient.addChannel = { registration in
                #expect(registration == ChannelRegistration(kind: .apns, address: token))
                return channel
            }
        }
        await store.send(.enablePushButtonTapped) { $0.push = .registering }
        await store.receive(\.pushResponse.success) {
            $0.push = .on
            $0.channels.channels = [channel]
        }
    }

    @Test func aDeclinedPushPromptRegistersNothing() async {
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) {
            SettingsFeature()
        } withDependencies: {
            $0.pushRegistrationClient.requestAuthorization = { false }
        }
        await store.send(.enablePushButtonTapped) { $0.push = .registering }
        await store.receive(.pushResponse(.success(nil))) { $0.push = .declined }
    }

    @Test func deviceRemindersAskForPermission() async {
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) {
            SettingsFeature()
        } withDependencies: {
            $0.localNotificationClient.requestAuthorization = { true }
        }
        await store.send(.allowDeviceRemindersButtonTapped)
        await store.receive(.deviceRemindersResponse(.success(true))) { $0.deviceRemindersAllowed = true }
    }

    @Test func quietHoursAreSavedAndTurnedOffAndAnEmptyRangeIsRefusedHere() async {
        let quiet = QuietHours(fromMinute: 22 * 60, toMinute: 7 * 60)
        let saved = modify(Fixtures.user) { $0.quietHours = quiet }
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) {
            SettingsFeature()
        } withDependencies: {
            $0.userClient.updateProfile = { changes in
                changes.clearsQuietHours ? Fixtures.user : modify(Fixtures.user) { $0.quietHours = changes.quietHours }
            }
        }
        // Nothing changed: nothing sent.
        await store.send(.saveQuietHoursButtonTapped)
        let empty = QuietHours(fromMinute: 60, toMinute: 60)
        await store.send(.binding(.set(\.quietHours, empty))) { $0.quietHours = empty }
        await store.send(.saveQuietHoursButtonTapped) {
            $0.destination = .alert(
                .failure(
                    UserFacingError(
                        message: "Quiet hours need a start and an end, different times like 22:00 and 07:00.",
                        reason: .invalid(field: "quietHours"))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.binding(.set(\.quietHours, quiet))) { $0.quietHours = quiet }
        await store.send(.saveQuietHoursButtonTapped) { $0.isSaving = true }
        await store.receive(\.profileSaved.success) {
            $0.isSaving = false
            $0.user = saved
        }
        await store.receive(.delegate(.userChanged(saved)))
        await store.send(.binding(.set(\.quietHours, nil))) { $0.quietHours = nil }
        await store.send(.saveQuietHoursButtonTapped) { $0.isSaving = true }
        await store.receive(\.profileSaved.success) {
            $0.isSaving = false
            $0.user = Fixtures.user
        }
        await store.receive(.delegate(.userChanged(Fixtures.user)))
    }

    @Test func daysOffOpenFromSettingsFromTomorrow() async {
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) {
            SettingsFeature()
        } withDependencies: {
            $0.date = .constant(Fixtures.now)
        }
        await store.send(.daysOffButtonTapped) {
            $0.destination = .daysOff(
                DaysOffFeature.State(from: Fixtures.now.addingTimeInterval(86400), until: Fixtures.now.addingTimeInterval(3 * 86400)))
        }
    }

    /// Ending a pause that held, in days off, reaches the profile (no longer "paused until")
    /// and, through its delegate, the check-in screen and the kept profile.
    @Test func aPauseEndedInDaysOffReachesTheProfile() async {
        let resumed = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(86400))
        let daysOff = DaysOffFeature.State(from: Fixtures.now, until: Fixtures.now)
        let settings = modify(SettingsFeature.State(user: Fixtures.user)) { $0.destination = .daysOff(daysOff) }
        let store = TestStore(
            initialState: modify(ProfileFeature.State(user: Fixtures.user, pausedUntil: Fixtures.now.addingTimeInterval(3600))) {
                $0.destination = .settings(settings)
            }
        ) {
            ProfileFeature()
        }
        await store.send(.destination(.presented(.settings(.destination(.presented(.daysOff(.delegate(.statusChanged(resumed)))))))))
        await store.receive(\.destination.presented.settings.delegate.statusChanged) { $0.pausedUntil = nil }
        await store.receive(.delegate(.statusChanged(resumed)))
    }

    @Test func theRecordAndTestsOfMySetupOpenFromSettings() async {
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) { SettingsFeature() }
        await store.send(.timelineButtonTapped) { $0.destination = .timeline(TimelineFeature.State()) }
        await store.send(.previewButtonTapped) { $0.destination = .preview(PreviewFeature.State()) }
        await store.send(.drillButtonTapped) { $0.destination = .drill(DrillFeature.State()) }
        await store.send(.historyButtonTapped) { $0.destination = .history(CheckInHistoryFeature.State()) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func profileOpensSettingsAndHearsOfAChangedGracePeriod() async {
        let saved = modify(Fixtures.user) { $0.graceMinutes = 5 }
        let store = TestStore(initialState: ProfileFeature.State(user: Fixtures.user)) {
            ProfileFeature()
        } withDependencies: {
            $0.userClient.updateProfile = { _ in saved }
        }
        await store.send(.settingsButtonTapped) { $0.destination = .settings(SettingsFeature.State(user: Fixtures.user)) }
        await store.send(.destination(.presented(.settings(.graceChanged(5))))) {
            $0.destination = .settings(modify(SettingsFeature.State(user: Fixtures.user)) { $0.graceMinutes = 5 })
        }
        await store.send(.destination(.presented(.settings(.saveGraceButtonTapped)))) {
            $0.destination = .settings(
                modify(SettingsFeature.State(user: Fixtures.user)) {
                    $0.graceMinutes = 5
                    $0.isSaving = true
                })
        }
        await store.receive(\.destination.presented.settings.profileSaved.success) {
            $0.destination = .settings(modify(SettingsFeature.State(user: saved)) { $0.graceMinutes = 5 })
        }
        await store.receive(\.destination.presented.settings.delegate.userChanged) { $0.user = saved }
        await store.receive(\.delegate.userChanged)
    }
}

/// A copy of `value` changed by `change`.
func modify<T>(_ value: T, _ change: (inout T) -> Void) -> T {
    var copy = value
    change(&copy)
    return copy
}

@MainActor
struct SessionsFeatureTests {
    nonisolated static let phone = Session(
        id: SessionID(UUID(600)), userID: Fixtures.user.id, kind: .session, name: "iPhone", createdAt: Fixtures.now,
        lastUsedAt: Fixtures.now)
    nonisolated static let laptop = Session(
        id: SessionID(UUID(601)), userID: Fixtures.user.id, kind: .session, name: "Web browser",
        createdAt: Fixtures.now, lastUsedAt: Fixtures.now.addingTimeInterval(-3600))

    @Test func listsRevokesButNeverThisDevice() async {
        let store = TestStore(initialState: SessionsFeature.State(currentID: Self.phone.id)) {
            SessionsFeature()
        } withDependencies: {
            $0.authClient.sessions = { [Self.laptop, Self.phone] }
            $0.authClient.revoke = { id in #expect(id == Self.laptop.id) }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.sessionsResponse.success) {
            $0.isLoading = false
            $0.sessions = [Self.phone, Self.laptop]  // most recently used first
        }
        await store.send(.revokeButtonTapped(Self.phone.id))
        await store.send(.revokeButtonTapped(Self.laptop.id)) { $0.revokingIDs = [Self.laptop.id] }
        await store.receive(\.revokeResponse) {
            $0.revokingIDs = []
            $0.sessions = [Self.phone]
        }
    }

    @Test func aNewTokenIsShownOnceWithItsScope() async {
        let session = Session(
            id: SessionID(UUID(602)), userID: Fixtures.user.id, kind: .apiToken, name: "Morning script",
            createdAt: Fixtures.now, lastUsedAt: Fixtures.now, scope: .checkIn)
        let token = APIToken(token: "ls_secret", session: session)
        let store = TestStore(initialState: SessionsFeature.State()) {
            SessionsFeature()
        } withDependencies: {
            $0.authClient.createToken = { name, scope in
                #expect(name == "Morning script")
                #expect(scope == .checkIn)
                return token
            }
        }
        await store.send(.createTokenButtonTapped) {
            $0.destination = .alert(
                .failure(UserFacingError(message: "Give the token a name, like \"Morning script\".", reason: .invalid(field: "name"))))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.binding(.set(\.tokenName, " Morning script "))) { $0.tokenName = " Morning script " }
        await store.send(.createTokenButtonTapped) { $0.isCreating = true }
        await store.receive(\.createTokenResponse.success) {
            $0.isCreating = false
            $0.tokenName = ""
            $0.createdToken = token
            $0.sessions = [session]
        }
        #expect(store.state.tokens == [session])
        await store.send(.tokenDismissed) { $0.createdToken = nil }
    }

    @Test func aFullTokenDoesNotSetTheNextOnesScopeAndRevokingItHidesItsSecret() async {
        let session = Session(
            id: SessionID(UUID(603)), userID: Fixtures.user.id, kind: .apiToken, name: "Home server",
            createdAt: Fixtures.now, lastUsedAt: Fixtures.now, scope: .full)
        let token = APIToken(token: "ls_full_secret", session: session)
        let store = TestStore(initialState: SessionsFeature.State(currentID: Self.phone.id)) {
            SessionsFeature()
        } withDependencies: {
            $0.authClient.createToken = { _, scope in
                #expect(scope == .full)
                return token
            }
            $0.authClient.revoke = { id in #expect(id == session.id) }
        }
        await store.send(.binding(.set(\.tokenName, "Home server"))) { $0.tokenName = "Home server" }
        await store.send(.binding(.set(\.tokenScope, .full))) { $0.tokenScope = .full }
        await store.send(.createTokenButtonTapped) { $0.isCreating = true }
        await store.receive(\.createTokenResponse.success) {
            $0.isCreating = false
            $0.tokenName = ""
            $0.tokenScope = .checkIn
            $0.createdToken = token
            $0.sessions = [session]
        }
        await store.send(.revokeButtonTapped(session.id)) { $0.revokingIDs = [session.id] }
        await store.receive(\.revokeResponse) {
            $0.revokingIDs = []
            $0.sessions = []
            $0.createdToken = nil
        }
    }
}

@MainActor
struct CheckInHistoryFeatureTests {
    nonisolated static func checkIns(_ range: ClosedRange<Int>) -> [CheckIn] {
        range.map { n in
            let at = Fixtures.now.addingTimeInterval(-Double(n) * 3600)
            return CheckIn(id: CheckInID(UUID(700 + n)), userID: Fixtures.user.id, at: at, clientAt: at, source: .app)
        }
    }

    @Test func pagesBackAndRefreshesFromTheNewest() async {
        let first = Self.checkIns(1...CheckInHistoryFeature.pageSize)
        let older = Self.checkIns((CheckInHistoryFeature.pageSize + 1)...(CheckInHistoryFeature.pageSize + 3))
        let fresh = Self.checkIns(0...2)
        let store = TestStore(initialState: CheckInHistoryFeature.State()) {
            CheckInHistoryFeature()
        } withDependencies: {
            $0.checkInClient.history = { before, limit in
                #expect(limit == CheckInHistoryFeature.pageSize)
                return before == nil ? first : older
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.pageResponse.success) {
            $0.isLoading = false
            $0.checkIns = IdentifiedArray(uniqueElements: first)
        }
        await store.send(.loadMore) { $0.isLoading = true }
        await store.receive(\.pageResponse.success) {
            $0.isLoading = false
            $0.checkIns = IdentifiedArray(uniqueElements: first + older)
            $0.hasMore = false
        }
        store.dependencies.checkInClient.history = { before, _ in
            #expect(before == nil)
            return fresh
        }
        await store.send(.pulledToRefresh) { $0.isRefreshing = true }
        await store.receive(\.refreshResponse.success) {
            $0.isRefreshing = false
            $0.checkIns = IdentifiedArray(uniqueElements: fresh)
        }
    }
}

@MainActor
struct WatchOnlyAndNeedHelpTests {
    @Test func onlyWatchingOverOthersIsASetting() async {
        let watching = modify(Fixtures.user) { $0.watchOnly = true }
        let store = TestStore(initialState: SettingsFeature.State(user: Fixtures.user)) {
            SettingsFeature()
        } withDependencies: {
            $0.userClient.updateProfile = { changes in
                #expect(changes == ProfileChanges(watchOnly: true))
                return watching
            }
        }
        await store.send(.watchOnlyToggled(false))  // already off: nothing to do
        await store.send(.watchOnlyToggled(true)) { $0.isSaving = true }
        await store.receive(\.profileSaved.success) {
            $0.isSaving = false
            $0.user = watching
        }
        await store.receive(\.delegate.userChanged)
    }

    @Test func aPingAnsweredINeedHelpRaisesTheAlert() async {
        let ping = Fixtures.ping(1, from: Fixtures.id(2), to: Fixtures.user.id)
        let bob = Fixtures.contact(2, "Bob", roles: .responder, incomingPing: ping)
        let incident = IncidentFeatureTests.incident(.manualAlert)
        var tabs = MainTabsFeature.State(user: Fixtures.user)
        tabs.responders = RespondersFeature.State(responders: [bob])
        let store = TestStore(initialState: tabs) {
            MainTabsFeature()
        } withDependencies: {
            $0.pingClient.needHelp = { id in
                #expect(id == ping.id)
                return incident
            }
        }
        await store.send(.responders(.needHelpButtonTapped(bob.id))) { $0.responders.isResponding = true }
        await store.receive(\.responders.needHelpResponse) {
            $0.responders.isResponding = false
            $0.responders.list.contacts[id: bob.id]?.incomingPing = nil
        }
        await store.receive(\.responders.delegate.alertRaised) { $0.alert.isAlertActive = true }
    }
}
