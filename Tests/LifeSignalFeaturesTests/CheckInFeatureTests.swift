import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules
import Testing

@testable import LifeSignalFeatures

@MainActor
struct CheckInFeatureTests {
    let clock = TestClock()
    let date = ManualDate()
    let reminders = LockIsolated<[LocalReminder]>([])

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    /// A profile service that keeps the schedule and reminders it is sent, in `profile`.
    static func savingSchedule(into profile: LockIsolated<User>) -> @Sendable (ProfileChanges) async throws -> User {
        { changes in
            profile.withValue {
                if let schedule = changes.schedule { $0.schedule = schedule }
                if let reminders = changes.reminders { $0.reminders = reminders }
            }
            return profile.value
        }
    }

    func makeStore(
        _ state: CheckInFeature.State = CheckInFeature.State(),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStoreOf<CheckInFeature> {
        TestStore(initialState: state) {
            CheckInFeature()
        } withDependencies: { [clock, date, reminders] in
            $0.continuousClock = clock
            $0.date = date.generator
            $0.uuid = .incrementing
            $0.localNotificationClient.cancel = { _ in reminders.setValue([]) }
            $0.localNotificationClient.schedule = { reminder in reminders.withValue { $0.append(reminder) } }
            dependencies(&$0)
        }
    }

    @Test func testCheckIn() async {
        let sent = LockIsolated<[CheckInID]>([])
        let felt = LockIsolated<[HapticFeedback]>([])
        let store = makeStore { [date] in
            $0.checkInClient.checkIn = { id, clientAt in
                sent.withValue { $0.append(id) }
                #expect(clientAt == date.now)
                return .recorded(Fixtures.checkInResult(id, at: Fixtures.now))
            }
            $0.hapticsClient.play = { feedback in felt.withValue { $0.append(feedback) } }
        }

        await store.send(.checkInButtonTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(\.checkInResponse.success) {
            $0.checkedInNow()
        }
        #expect(sent.value == [CheckInID(UUID(0))])
        #expect(!store.state.isCheckInButtonEnabled)

        // The device's own reminder, 30 minutes (the default) before the new deadline.
        await clock.advance(by: .seconds(29))
        #expect(reminders.value.map(\.fireAt) == [Fixtures.now.addingTimeInterval(24 * 3600 - 1800)])
        #expect(reminders.value.map(\.id) == ["check-in-reminder-1800"])
        // The success tap, once.
        #expect(felt.value == [.success])

        // A second tap during the cooldown does nothing: no state change, no request.
        await store.send(.checkInButtonTapped)
        await clock.advance(by: .seconds(1))
        await store.receive(\.cooldownEnded) {
            $0.isCoolingDown = false
        }
        #expect(sent.value.count == 1)
    }

    @Test func twoMoreHoursMoveTheDeadlineAndTheDevicesReminder() async {
        let deadline = Fixtures.now.addingTimeInterval(3600)
        var state = CheckInFeature.State()
        state.lastCheckIn = Fixtures.now.addingTimeInterval(-23 * 3600)
        state.nextCheckInDue = deadline
        let store = makeStore(state) {
            $0.checkInClient.addTime = { minutes in
                #expect(minutes == 120)
                return Fixtures.status(
                    lastCheckIn: Fixtures.now.addingTimeInterval(-23 * 3600), deadline: deadline.addingTimeInterval(7200))
            }
        }
        await store.send(.addTimeTapped(minutes: 120)) { $0.isCheckingIn = true }
        await store.receive(\.addTimeResponse.success) {
            $0.isCheckingIn = false
            $0.nextCheckInDue = deadline.addingTimeInterval(7200)
        }
        // The device's own reminder, 30 minutes before the new deadline.
        await clock.advance(by: .seconds(1))
        #expect(reminders.value.map(\.fireAt) == [deadline.addingTimeInterval(7200 - 1800)])
    }

    @Test func addingTimeTooLateIsSaidPlainly() async {
        let refusal = UserFacingError(message: "Your deadline has passed: check in instead.", reason: .invalid(field: "minutes"))
        let store = makeStore { $0.checkInClient.addTime = { _ in throw refusal } }
        await store.send(.addTimeTapped(minutes: 60)) { $0.isCheckingIn = true }
        await store.receive(\.addTimeResponse.failure) {
            $0.isCheckingIn = false
            $0.destination = .alert(.failure(refusal))
        }
    }

    @Test func testCheckInQueuedWhileOffline() async {
        let pending = PendingCheckIn(id: CheckInID(UUID(0)), clientAt: Fixtures.now)
        let store = makeStore {
            $0.checkInClient.checkIn = { id, clientAt in .queued(PendingCheckIn(id: id, clientAt: clientAt)) }
        }

        await store.send(.checkInButtonTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(\.checkInResponse.success) {
            $0.isCheckingIn = false
            $0.pending.isOnline = false
            $0.pending.checkIns = [pending]
            $0.isCoolingDown = true
        }
        await clock.advance(by: .seconds(30))
        await store.receive(\.cooldownEnded) {
            $0.isCoolingDown = false
        }
        #expect(reminders.value.isEmpty)
    }

    @Test func testErrorHandling() async {
        let store = makeStore {
            $0.checkInClient.checkIn = { _, _ in throw Fixtures.serverError }
        }

        await store.send(.checkInButtonTapped) {
            $0.isCheckingIn = true
        }
        await store.receive(.checkInResponse(.failure(Fixtures.serverFailure))) {
            $0.isCheckingIn = false
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        await store.send(.destination(.dismiss)) {
            $0.destination = nil
        }
    }

    @Test func testSetCheckInInterval() async {
        let lastCheckIn = Date(timeIntervalSince1970: 1000)
        var saved = Fixtures.user
        saved.lastCheckInAt = lastCheckIn
        saved.schedule = .interval(seconds: 48 * 3600)
        let changes = LockIsolated<[ProfileChanges]>([])
        let store = makeStore(
            CheckInFeature.State(
                lastCheckIn: lastCheckIn, nextCheckInDue: lastCheckIn.addingTimeInterval(24 * 3600),
                checkInInterval: 24 * 3600, reminders: .thirtyMinutes)
        ) { [saved] in
            $0.userClient.updateProfile = { change in
                changes.withValue { $0.append(change) }
                return saved
            }
        }

        await store.send(.setCheckInInterval(48 * 3600)) {
            $0.rhythmBeforeSave = $0.rhythm
            $0.checkInInterval = 48 * 3600
            $0.nextCheckInDue = lastCheckIn.addingTimeInterval(48 * 3600)
        }
        await store.receive(\.scheduleSaved.success) { $0.rhythmBeforeSave = nil }
        await store.receive(\.delegate.scheduleChanged, saved)
        #expect(changes.value == [ProfileChanges(schedule: .interval(seconds: 48 * 3600))])
        await store.finish()
        #expect(reminders.value.map(\.fireAt) == [lastCheckIn.addingTimeInterval(48 * 3600 - 1800)])
    }

    @Test func testSetCheckInIntervalFailure() async {
        let store = makeStore {
            $0.userClient.updateProfile = { _ in throw Fixtures.serverError }
        }

        let before = store.state.rhythm
        await store.send(.setCheckInInterval(8 * 3600)) {
            $0.rhythmBeforeSave = $0.rhythm
            $0.checkInInterval = 8 * 3600
        }
        // Not saved: the screen shows her rhythm as the server still has it, not the new one.
        await store.receive(.scheduleSaved(.failure(Fixtures.serverFailure))) {
            $0.rhythmBeforeSave = nil
            $0.checkInInterval = before.checkInInterval
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.rhythm == before)
    }

    /// A longer rhythm that was not saved must not count down past the deadline the server keeps.
    @Test func aRhythmNotSavedPutsBackTheDeadlineItMoved() async {
        let store = makeStore(CheckInFeature.State(user: Fixtures.user)) {
            $0.userClient.updateProfile = { _ in throw Fixtures.serverError }
        }
        let before = store.state.rhythm
        await store.send(.setCheckInInterval(48 * 3600)) {
            $0.rhythmBeforeSave = $0.rhythm
            $0.checkInInterval = 48 * 3600
            $0.nextCheckInDue = Fixtures.user.lastCheckInAt!.addingTimeInterval(48 * 3600)
        }
        await store.receive(.scheduleSaved(.failure(Fixtures.serverFailure))) {
            $0.rhythmBeforeSave = nil
            $0.rhythm = before
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.nextCheckInDue == Deadline.of(Fixtures.user))
    }

    /// A check-in made elsewhere while the change is on its way moves the deadline for real:
    /// when the change fails, the rhythm put back keeps that deadline, not the one before it.
    @Test func aRhythmPutBackKeepsADeadlineTheServerGaveMeanwhile() async {
        let store = makeStore(CheckInFeature.State(user: Fixtures.user)) { [clock] in
            $0.userClient.updateProfile = { _ in
                try await clock.sleep(for: .seconds(1))
                throw Fixtures.serverError
            }
        }
        let before = store.state.rhythm
        await store.send(.setCheckInInterval(48 * 3600)) {
            $0.rhythmBeforeSave = $0.rhythm
            $0.checkInInterval = 48 * 3600
            $0.nextCheckInDue = Fixtures.user.lastCheckInAt!.addingTimeInterval(48 * 3600)
        }
        let checkedIn = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(24 * 3600))
        await store.send(.statusResponse(.success(checkedIn))) {
            $0.lastCheckIn = Fixtures.now
            $0.nextCheckInDue = checkedIn.deadline
            $0.rhythmBeforeSave?.nextCheckInDue = checkedIn.deadline
        }
        await clock.advance(by: .seconds(1))
        await store.receive(.scheduleSaved(.failure(Fixtures.serverFailure))) {
            $0.rhythmBeforeSave = nil
            $0.checkInInterval = before.checkInInterval
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.nextCheckInDue == checkedIn.deadline)
    }

    @Test func testSetReminders() async {
        var saved = Fixtures.user
        saved.reminders = .both
        let store = makeStore(CheckInFeature.State(user: Fixtures.user)) { [saved] in
            $0.userClient.updateProfile = { changes in
                #expect(changes == ProfileChanges(reminders: .both))
                return saved
            }
        }

        await store.send(.setReminders(.both)) {
            $0.rhythmBeforeSave = $0.rhythm
            $0.reminders = .both
        }
        await store.receive(\.scheduleSaved.success) { $0.rhythmBeforeSave = nil }
        await store.receive(\.delegate.scheduleChanged)
        await store.finish()
        let deadline = Deadline.of(saved)
        #expect(
            reminders.value.map(\.fireAt) == [deadline.addingTimeInterval(-7200), deadline.addingTimeInterval(-1800)])
    }

    @Test func testIntervalSelection() async {
        let profile = LockIsolated(Fixtures.user)
        let store = makeStore(CheckInFeature.State(user: Fixtures.user)) {
            $0.userClient.updateProfile = Self.savingSchedule(into: profile)
        }

        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 24 * 3600, reminders: .thirtyMinutes))
        }
        await store.send(.destination(.presented(.intervalSelection(.intervalSelected(48 * 3600))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 48 * 3600, reminders: .thirtyMinutes))
        }
        await store.send(.destination(.presented(.intervalSelection(.remindersSelected(.twoHours))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 48 * 3600, reminders: .twoHours))
        }
        await store.send(.destination(.presented(.intervalSelection(.saveButtonTapped))))
        await store.receive(
            .destination(
                .presented(
                    .intervalSelection(
                        .delegate(
                            .intervalsSelected(
                                checkInInterval: 48 * 3600, reminders: .twoHours)))))
        ) {
            $0.destination = nil
            $0.rhythmBeforeSave = $0.rhythm
            $0.checkInInterval = 48 * 3600
            $0.reminders = .twoHours
            $0.nextCheckInDue = Fixtures.user.lastCheckInAt!.addingTimeInterval(48 * 3600)
        }
        await store.receive(\.scheduleSaved.success) { $0.rhythmBeforeSave = nil }
        await store.receive(\.delegate.scheduleChanged)
        #expect(profile.value.schedule == .interval(seconds: 48 * 3600))
        #expect(profile.value.reminders == .twoHours)
    }

    @Test func aDailyDeadlineChosenInTheSheetIsSavedAndShownAsTheNextDeadline() async {
        let profile = LockIsolated(Fixtures.user)
        let store = makeStore(CheckInFeature.State(user: Fixtures.user)) {
            $0.userClient.updateProfile = Self.savingSchedule(into: profile)
            $0.timeZone = TimeZone(identifier: "Europe/London")!
        }
        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 24 * 3600, reminders: .thirtyMinutes))
        }
        let daily = IntervalSelectionFeature.DailyTime(hour: 9, minute: 30, timeZone: "Europe/London")
        await store.send(.destination(.presented(.intervalSelection(.dailyTimeSelected(hour: 9, minute: 30))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 24 * 3600, reminders: .thirtyMinutes, daily: daily))
        }
        await store.send(.destination(.presented(.intervalSelection(.saveButtonTapped))))
        await store.receive(
            .destination(.presented(.intervalSelection(.delegate(.dailyDeadlineSelected(daily, reminders: .thirtyMinutes)))))
        ) {
            $0.destination = nil
            $0.rhythmBeforeSave = $0.rhythm
            $0.daily = daily
            $0.nextCheckInDue = Deadline.next(after: Fixtures.user.lastCheckInAt!, schedule: .daily(daily))
        }
        await store.receive(\.scheduleSaved.success) { $0.rhythmBeforeSave = nil }
        await store.receive(\.delegate.scheduleChanged)
        #expect(profile.value.schedule == .daily(hour: 9, minute: 30, timeZone: "Europe/London"))
    }

    @Test func twoDailyTimesChosenInTheSheetAreSavedWithTheEarliestUnmetDeadline() async {
        let profile = LockIsolated(Fixtures.user)
        let store = makeStore(CheckInFeature.State(user: Fixtures.user)) {
            $0.userClient.updateProfile = Self.savingSchedule(into: profile)
            $0.timeZone = TimeZone(identifier: "Europe/Vienna")!
        }
        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 24 * 3600, reminders: .thirtyMinutes))
        }
        let one = DailySchedule(hour: 9, minute: 30, timeZone: "Europe/Vienna")
        await store.send(.destination(.presented(.intervalSelection(.dailyTimeSelected(hour: 9, minute: 30))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 24 * 3600, reminders: .thirtyMinutes, daily: one))
        }
        let two = DailySchedule(
            times: [DailySchedule.Time(hour: 9, minute: 30), DailySchedule.Time(hour: 21, minute: 30, weekdays: Set(1...5))],
            timeZone: "Europe/Vienna")
        await store.send(.destination(.presented(.intervalSelection(.dailyTimeAdded(hour: 21, minute: 30))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(
                    checkInInterval: 24 * 3600, reminders: .thirtyMinutes,
                    daily: DailySchedule(
                        times: [DailySchedule.Time(hour: 9, minute: 30), DailySchedule.Time(hour: 21, minute: 30)],
                        timeZone: "Europe/Vienna")))
        }
        await store.send(.destination(.presented(.intervalSelection(.dailyTimeWeekdaysSelected(index: 1, weekdays: Set(1...5)))))) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 24 * 3600, reminders: .thirtyMinutes, daily: two))
        }
        await store.send(.destination(.presented(.intervalSelection(.saveButtonTapped))))
        await store.receive(
            .destination(.presented(.intervalSelection(.delegate(.dailyDeadlineSelected(two, reminders: .thirtyMinutes)))))
        ) {
            $0.destination = nil
            $0.rhythmBeforeSave = $0.rhythm
            $0.daily = two
            // The shortest gap is 12 hours (09:30 to 21:30): the countdown's colour is judged on it.
            $0.checkInInterval = 12 * 3600
            $0.nextCheckInDue = Deadline.next(after: Fixtures.user.lastCheckInAt!, schedule: .daily(two))
        }
        await store.receive(\.scheduleSaved.success) { $0.rhythmBeforeSave = nil }
        await store.receive(\.delegate.scheduleChanged)
        #expect(profile.value.schedule == .daily(two))
    }

    @Test func testIntervalSelectionCancelled() async {
        let store = makeStore()
        await store.send(.intervalSelectionButtonTapped) {
            $0.destination = .intervalSelection(
                IntervalSelectionFeature.State(checkInInterval: 24 * 3600, reminders: .thirtyMinutes))
        }
        await store.send(.destination(.presented(.intervalSelection(.cancelButtonTapped))))
        await store.receive(.destination(.presented(.intervalSelection(.delegate(.cancelled))))) {
            $0.destination = nil
        }
    }

    @Test func testCountdownTicksAndTurnsCloseThenOverdue() async {
        let deadline = Fixtures.now.addingTimeInterval(7202)
        let reachability = AsyncStream.makeStream(of: Bool.self)
        let store = makeStore(
            CheckInFeature.State(lastCheckIn: deadline.addingTimeInterval(-86400), nextCheckInDue: deadline)
        ) {
            $0.checkInClient.status = {
                Fixtures.status(lastCheckIn: deadline.addingTimeInterval(-86400), deadline: deadline)
            }
            $0.checkInClient.pending = { [] }
            $0.reachabilityClient.updates = { reachability.stream }
        }

        await store.send(.appBecameActive) {
            $0.now = Fixtures.now
        }
        await store.receive(\.statusResponse.success)
        await store.receive(.pending(.loaded([])))
        #expect(store.state.secondsLeft == 7202)
        #expect(store.state.urgency == .plenty)

        date.advance(by: 1)
        await clock.advance(by: .seconds(1))
        await store.receive(.timerTick) {
            $0.now = Fixtures.now.addingTimeInterval(1)
        }
        #expect(store.state.urgency == .plenty)

        date.advance(by: 1)
        await clock.advance(by: .seconds(1))
        await store.receive(.timerTick) {
            $0.now = Fixtures.now.addingTimeInterval(2)
        }
        // Two hours left of a 24-hour period: the last two hours are "getting close".
        #expect(store.state.secondsLeft == 7200)
        #expect(store.state.urgency == .close)

        reachability.continuation.yield(true)
        await store.receive(.pending(.reachabilityChanged(true)))

        await store.send(.appBecameInactive)
        // The timer is gone: time passing sends nothing.
        await clock.advance(by: .seconds(10))
    }

    @Test func statusShowsAPause() async {
        let until = Fixtures.now.addingTimeInterval(3 * 86400)
        var paused = Fixtures.status(lastCheckIn: Fixtures.now, deadline: until.addingTimeInterval(86400), state: .paused)
        paused.pausedUntil = until
        let store = makeStore()
        await store.send(.statusResponse(.success(paused))) {
            $0.lastCheckIn = Fixtures.now
            $0.nextCheckInDue = until.addingTimeInterval(86400)
            $0.statusState = .paused
            $0.pausedUntil = until
        }
    }

    @Test func urgencyThresholdsFollowStatusRule() {
        var state = CheckInFeature.State(
            lastCheckIn: Fixtures.now, nextCheckInDue: Fixtures.now.addingTimeInterval(8 * 3600),
            checkInInterval: 8 * 3600)
        #expect(state.urgency == nil)
        state.now = Fixtures.now
        #expect(state.urgency == .plenty)
        // An 8-hour period turns close in its last quarter (2 hours).
        state.now = Fixtures.now.addingTimeInterval(6 * 3600 - 1)
        #expect(state.urgency == .plenty)
        state.now = Fixtures.now.addingTimeInterval(6 * 3600)
        #expect(state.urgency == .close)
        state.now = Fixtures.now.addingTimeInterval(8 * 3600)
        #expect(state.urgency == .overdue)
    }

    @Test func queuedCheckInsAreSentWhenTheNetworkReturns() async {
        let queued = [
            PendingCheckIn(id: CheckInID(UUID(7)), clientAt: Fixtures.now.addingTimeInterval(-600)),
            PendingCheckIn(id: CheckInID(UUID(8)), clientAt: Fixtures.now.addingTimeInterval(-300)),
        ]
        let reachability = AsyncStream.makeStream(of: Bool.self)
        let flushes = LockIsolated(0)
        let store = makeStore {
            $0.checkInClient.status = { throw Fixtures.offline }
            $0.checkInClient.pending = { queued }
            $0.checkInClient.flushPending = {
                flushes.withValue { $0 += 1 }
                if flushes.value == 1 { throw Fixtures.offline }
                return [Fixtures.checkInResult(queued[0].id, at: Fixtures.now), Fixtures.checkInResult(queued[1].id, at: Fixtures.now)]
            }
            $0.reachabilityClient.updates = { reachability.stream }
        }

        await store.send(.appBecameActive) {
            $0.now = Fixtures.now
        }
        await store.receive(.statusResponse(.failure(Fixtures.offlineFailure))) {
            $0.destination = .alert(.failure(Fixtures.offlineFailure))
        }
        await store.receive(.pending(.loaded(queued))) {
            $0.pending.checkIns = queued
        }
        // Still offline: the first attempt fails quietly and the queue stays.
        await store.receive(.pending(.flushResponse(.failure(Fixtures.offlineFailure)))) {
            $0.pending.isOnline = false
        }
        reachability.continuation.yield(true)
        await store.receive(.pending(.reachabilityChanged(true))) {
            $0.pending.isOnline = true
        }
        await store.receive(\.pending.flushResponse.success) {
            $0.pending.checkIns = []
        }
        // The latest of the sent check-ins becomes the screen's status.
        await store.receive(\.pending.delegate.sent) {
            $0.lastCheckIn = Fixtures.now
            $0.nextCheckInDue = Fixtures.now.addingTimeInterval(86400)
        }
        #expect(flushes.value == 2)
        await store.send(.appBecameInactive)
    }

    @Test func flushThatStillCannotReachTheServerKeepsTheQueueQuietly() async {
        let queued = [PendingCheckIn(id: CheckInID(UUID(7)), clientAt: Fixtures.now)]
        var state = CheckInFeature.State()
        state.pending.checkIns = queued
        let store = makeStore(state) {
            $0.checkInClient.flushPending = { throw Fixtures.offline }
        }

        await store.send(.pending(.reachabilityChanged(true)))
        await store.receive(.pending(.flushResponse(.failure(Fixtures.offlineFailure)))) {
            $0.pending.isOnline = false
        }
        await store.send(.pending(.reachabilityChanged(true))) {
            $0.pending.isOnline = true
        }
        await store.receive(.pending(.flushResponse(.failure(Fixtures.offlineFailure)))) {
            $0.pending.isOnline = false
        }
    }

    @Test func flushServerErrorIsShown() async {
        var state = CheckInFeature.State()
        state.pending.checkIns = [PendingCheckIn(id: CheckInID(UUID(7)), clientAt: Fixtures.now)]
        let store = makeStore(state) {
            $0.checkInClient.flushPending = { throw Fixtures.serverError }
        }
        await store.send(.pending(.reachabilityChanged(true)))
        await store.receive(.pending(.flushResponse(.failure(Fixtures.serverFailure))))
        await store.receive(.pending(.delegate(.failed(Fixtures.serverFailure)))) {
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
    }
}

@MainActor
struct CheckInCountdownAndErrorTests {
    @Test func theCountdownSplitsWhatIsLeftAndAnErrorCanBeSetFromOutside() async {
        var state = CheckInFeature.State(user: Fixtures.user)
        #expect(state.countdown == nil)  // before the first tick
        state.now = Fixtures.now
        state.nextCheckInDue = Fixtures.now.addingTimeInterval(86_400 + 2 * 3600 + 3 * 60 + 4)
        #expect(state.countdown == Countdown(secondsLeft: 86_400 + 2 * 3600 + 3 * 60 + 4))
        #expect(state.countdown?.parts.map(\.value) == [1, 2, 3, 4])

        let store = TestStore(initialState: state) { CheckInFeature() }
        await store.send(.setError(Fixtures.serverFailure)) { $0.destination = .alert(.failure(Fixtures.serverFailure)) }
        await store.send(.setError(nil)) { $0.destination = nil }
    }
}
