import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules
import Testing

@testable import LifeSignalFeatures

/// "Call me every day" chosen in the rhythm sheet of the check-in screen: saved through the
/// profile client as the schedule alone, shown once the server has it, and no device reminders
/// while the calls stand in for them.
@MainActor
struct CheckInDailyCallTests {
    let clock = TestClock()
    let date = ManualDate()
    let reminders = LockIsolated<[LocalReminder]>([])
    /// What the profile client was sent, in order.
    let sent = LockIsolated<[ProfileChanges]>([])

    nonisolated static let call = DailyCall(hour: 9, minute: 0, timeZone: "Europe/London", attempts: 2)

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    /// A store whose profile service keeps the schedule and reminders it is sent, in `profile`.
    func makeStore(_ user: User, profile: LockIsolated<User>) -> TestStoreOf<CheckInFeature> {
        TestStore(initialState: CheckInFeature.State(user: user)) {
            CheckInFeature()
        } withDependencies: { [clock, date, reminders, sent] in
            $0.continuousClock = clock
            $0.date = date.generator
            $0.uuid = .incrementing
            $0.timeZone = TimeZone(identifier: "Europe/London")!
            $0.localNotificationClient.cancel = { _ in reminders.setValue([]) }
            $0.localNotificationClient.schedule = { reminder in reminders.withValue { $0.append(reminder) } }
            $0.userClient.updateProfile = { changes in
                sent.withValue { $0.append(changes) }
                return profile.withValue { user in
                    if let schedule = changes.schedule { user.schedule = schedule }
                    if let reminders = changes.reminders { user.reminders = reminders }
                    return user
                }
            }
        }
    }

    @Test func aDailyCallChosenInTheSheetIsSavedShownAndReopened() async {
        let profile = LockIsolated(Fixtures.user)
        // The device's reminder for the rolling interval, set earlier.
        reminders.setValue([LocalReminder(id: "check-in-reminder-1800", fireAt: Fixtures.now, title: "", body: "")])
        let store = makeStore(Fixtures.user, profile: profile)
        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes))
        }
        await store.send(.destination(.presented(.intervalSelection(.dailyCallTimeSelected(hour: 9, minute: 0))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(
                    checkInInterval: 86400, reminders: .thirtyMinutes,
                    dailyCall: DailyCall(hour: 9, minute: 0, timeZone: "Europe/London")))
        }
        await store.send(.destination(.presented(.intervalSelection(.dailyCallAttemptsSelected(2))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes, dailyCall: Self.call))
        }
        await store.send(.destination(.presented(.intervalSelection(.saveButtonTapped))))
        await store.receive(.destination(.presented(.intervalSelection(.delegate(.dailyCallSelected(Self.call)))))) {
            $0.destination = nil
        }
        await store.receive(\.scheduleSaved.success) {
            $0.dailyCall = Self.call
            // Tomorrow's first call at 09:00, a second at 09:15, then ten minutes to press 1.
            $0.nextCheckInDue = Deadline.next(after: Fixtures.user.lastCheckInAt!, schedule: .dailyCall(Self.call))
        }
        await store.receive(\.delegate.scheduleChanged)
        await store.finish()
        #expect(store.state.nextCheckInDue == Date(timeIntervalSince1970: 1_800_000_000 + 86400 + 3600 + 25 * 60))
        // Exactly the rhythm: her reminder choice is left as it was, for a later interval.
        #expect(sent.value == [ProfileChanges(schedule: .dailyCall(Self.call))])
        #expect(profile.value.reminders == .thirtyMinutes)
        // The calls are the reminders: the device's own is taken down, and none is set.
        #expect(reminders.value == [])

        // Reopened, the sheet starts from the saved call, reminders put away.
        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes, dailyCall: Self.call))
        }
        if case let .intervalSelection(sheet)? = store.state.destination { #expect(!sheet.showsReminders) }
        await store.send(.destination(.presented(.intervalSelection(.cancelButtonTapped))))
        await store.receive(.destination(.presented(.intervalSelection(.delegate(.cancelled))))) {
            $0.destination = nil
        }
    }

    @Test func switchingBackToAnIntervalClearsTheCallAndBringsBackTheReminders() async {
        let user = {
            var user = Fixtures.user
            user.schedule = .dailyCall(Self.call)
            return user
        }()
        let profile = LockIsolated(user)
        let store = makeStore(user, profile: profile)
        #expect(store.state.dailyCall == Self.call)
        #expect(store.state.checkInInterval == 86400)
        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes, dailyCall: Self.call))
        }
        await store.send(.destination(.presented(.intervalSelection(.intervalSelected(48 * 3600))))) {
            $0.destination = .intervalSelection(IntervalSelectionFeature.State(checkInInterval: 48 * 3600, reminders: .thirtyMinutes))
        }
        await store.send(.destination(.presented(.intervalSelection(.saveButtonTapped))))
        await store.receive(
            .destination(
                .presented(.intervalSelection(.delegate(.intervalsSelected(checkInInterval: 48 * 3600, reminders: .thirtyMinutes)))))
        ) {
            $0.destination = nil
            $0.rhythmBeforeSave = $0.rhythm
            $0.checkInInterval = 48 * 3600
            $0.dailyCall = nil
            $0.nextCheckInDue = Fixtures.user.lastCheckInAt!.addingTimeInterval(48 * 3600)
        }
        await store.receive(\.scheduleSaved.success) { $0.rhythmBeforeSave = nil }
        await store.receive(\.delegate.scheduleChanged)
        await store.finish()
        #expect(sent.value == [ProfileChanges(schedule: .interval(seconds: 48 * 3600), reminders: .thirtyMinutes)])
        #expect(profile.value.schedule == .interval(seconds: 48 * 3600))
        // The device's own reminder is back, 30 minutes before the new deadline.
        #expect(reminders.value.map(\.fireAt) == [Fixtures.user.lastCheckInAt!.addingTimeInterval(48 * 3600 - 1800)])
    }

    @Test func aRefusedCallIsShownAndTheRhythmLeftAsItWas() async {
        let store = TestStore(initialState: CheckInFeature.State(user: Fixtures.user)) {
            CheckInFeature()
        } withDependencies: { [sent] in
            $0.userClient.updateProfile = { changes in
                sent.withValue { $0.append(changes) }
                throw Fixtures.serverError
            }
        }
        let call = DailyCall(hour: 9, minute: 0, timeZone: "Europe/London", number: "+15551230002")
        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes))
        }
        await store.send(.destination(.presented(.intervalSelection(.delegate(.dailyCallSelected(call)))))) {
            $0.destination = nil
        }
        // The countdown keeps the rhythm the server has: no call is shown that will not ring.
        await store.receive(\.scheduleSaved.failure) {
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(sent.value == [ProfileChanges(schedule: .dailyCall(call))])
        #expect(store.state.dailyCall == nil)
    }
}
