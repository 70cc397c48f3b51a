import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct IntervalSelectionFeatureTests {
    @Test func offersTheSchedulePresets() {
        let state = IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes)
        #expect(state.availableIntervals.map { Int($0 / 3600) } == [8, 16, 24, 32, 48, 72, 96, 120, 144, 168])
        #expect(state.availableReminders == [.none, .thirtyMinutes, .twoHours, .both])
    }

    @Test func choosingSendsTheSelectionToTheParent() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .none)) {
            IntervalSelectionFeature()
        }
        await store.send(.intervalSelected(8 * 3600)) {
            $0.checkInInterval = 8 * 3600
        }
        await store.send(.remindersSelected(.both)) {
            $0.reminders = .both
        }
        await store.send(.saveButtonTapped)
        await store.receive(.delegate(.intervalsSelected(checkInInterval: 8 * 3600, reminders: .both)))
    }

    @Test func aReminderLongerThanTheIntervalCannotBeSaved() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .twoHours)) {
            IntervalSelectionFeature()
        }
        await store.send(.intervalSelected(3600)) {
            $0.checkInInterval = 3600
            $0.validationError = "A reminder must come sooner than the check-in interval."
        }
        // Exhaustive: a delegate action here would be an unexpected received action.
        await store.send(.saveButtonTapped)
        await store.send(.remindersSelected(.thirtyMinutes)) {
            $0.reminders = .thirtyMinutes
            $0.validationError = nil
        }
        await store.send(.saveButtonTapped)
        await store.receive(.delegate(.intervalsSelected(checkInInterval: 3600, reminders: .thirtyMinutes)))
    }

    @Test func cancelTellsTheParent() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .none)) {
            IntervalSelectionFeature()
        }
        await store.send(.cancelButtonTapped)
        await store.receive(.delegate(.cancelled))
    }
}

@MainActor
struct DailyDeadlineSelectionTests {
    @Test func aDailyDeadlineIsChosenInTheDevicesZoneAndSentToTheParent() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes)) {
            IntervalSelectionFeature()
        } withDependencies: {
            $0.timeZone = TimeZone(identifier: "Europe/Paris")!
        }
        await store.send(.dailyTimeSelected(hour: 9, minute: 30)) {
            $0.daily = .init(hour: 9, minute: 30, timeZone: "Europe/Paris")
        }
        await store.send(.saveButtonTapped)
        await store.receive(
            .delegate(.dailyDeadlineSelected(.init(hour: 9, minute: 30, timeZone: "Europe/Paris"), reminders: .thirtyMinutes)))
    }

    @Test func aDailyDeadlineKeepsItsZoneAndAnIntervalReplacesIt() async {
        let daily = IntervalSelectionFeature.DailyTime(hour: 21, minute: 0, timeZone: "America/New_York")
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .none, daily: daily)) {
            IntervalSelectionFeature()
        } withDependencies: {
            $0.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        }
        // Changing the time keeps the deadline's own zone, not the device's.
        await store.send(.dailyTimeSelected(hour: 22, minute: 15)) {
            $0.daily = .init(hour: 22, minute: 15, timeZone: "America/New_York")
        }
        await store.send(.intervalSelected(8 * 3600)) {
            $0.checkInInterval = 8 * 3600
            $0.daily = nil
        }
        await store.send(.saveButtonTapped)
        await store.receive(.delegate(.intervalsSelected(checkInInterval: 8 * 3600, reminders: .none)))
    }

    @Test func twoDailyTimesWithTheirDaysAreChosenCheckedAndSentToTheParent() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes)) {
            IntervalSelectionFeature()
        } withDependencies: {
            $0.timeZone = TimeZone(identifier: "Europe/Vienna")!
        }
        func daily(_ times: [DailySchedule.Time]) -> DailySchedule { DailySchedule(times: times, timeZone: "Europe/Vienna") }
        func message(_ times: [DailySchedule.Time]) -> String? {
            IntervalSelectionFeature.validate(.daily(daily(times)), .thirtyMinutes)
        }
        let morning = DailySchedule.Time(hour: 9, minute: 30)
        await store.send(.dailyTimeSelected(hour: 9, minute: 30)) {
            $0.daily = daily([morning])
        }
        // Half an hour later is too close: the sheet says why, and nothing is sent.
        let tooClose = [morning, DailySchedule.Time(hour: 10, minute: 0)]
        #expect(message(tooClose) != nil)
        await store.send(.dailyTimeAdded(hour: 10, minute: 0)) {
            $0.daily = daily(tooClose)
            $0.validationError = message(tooClose)
        }
        await store.send(.saveButtonTapped)
        await store.send(.dailyTimeRemoved(index: 1)) {
            $0.daily = daily([morning])
            $0.validationError = nil
        }
        // The last time stays.
        await store.send(.dailyTimeRemoved(index: 0))
        await store.send(.dailyTimeAdded(hour: 21, minute: 30)) {
            $0.daily = daily([morning, DailySchedule.Time(hour: 21, minute: 30)])
        }
        await store.send(.dailyTimeWeekdaysSelected(index: 1, weekdays: Set(1...5))) {
            $0.daily = daily([morning, DailySchedule.Time(hour: 21, minute: 30, weekdays: Set(1...5))])
        }
        // A time on no day is refused until it has one.
        let noDays = [
            DailySchedule.Time(hour: 9, minute: 30, weekdays: []), DailySchedule.Time(hour: 21, minute: 30, weekdays: Set(1...5)),
        ]
        await store.send(.dailyTimeWeekdaysSelected(index: 0, weekdays: [])) {
            $0.daily = daily(noDays)
            $0.validationError = message(noDays)
        }
        let chosen = daily([
            DailySchedule.Time(hour: 9, minute: 30, weekdays: Set(1...6)), DailySchedule.Time(hour: 21, minute: 30, weekdays: Set(1...5)),
        ])
        await store.send(.dailyTimeWeekdaysSelected(index: 0, weekdays: Set(1...6))) {
            $0.daily = chosen
            $0.validationError = nil
        }
        await store.send(.saveButtonTapped)
        await store.receive(.delegate(.dailyDeadlineSelected(chosen, reminders: .thirtyMinutes)))
    }
}

@MainActor
struct DailyCallSelectionTests {
    @Test func aDailyCallIsChosenWithItsTriesDaysAndNumberAndSentToTheParent() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .thirtyMinutes)) {
            IntervalSelectionFeature()
        } withDependencies: {
            $0.timeZone = TimeZone(identifier: "Europe/Paris")!
        }
        #expect(store.state.availableAttempts == [1, 2, 3, 4, 5])
        #expect(store.state.availableRetryMinutes == [5, 10, 15, 20, 30, 45, 60])
        await store.send(.dailyCallTimeSelected(hour: 9, minute: 0)) {
            $0.dailyCall = DailyCall(hour: 9, minute: 0, timeZone: "Europe/Paris")
        }
        // The calls are the reminders: the reminder choice is put away, not changed.
        #expect(!store.state.showsReminders)
        #expect(store.state.reminders == .thirtyMinutes)
        await store.send(.dailyCallAttemptsSelected(2)) { $0.dailyCall?.attempts = 2 }
        await store.send(.dailyCallRetrySelected(minutes: 10)) { $0.dailyCall?.retryMinutes = 10 }
        await store.send(.dailyCallWeekdaysSelected([1, 2, 3, 4, 5])) { $0.dailyCall?.weekdays = [1, 2, 3, 4, 5] }
        await store.send(.dailyCallNumberChanged("01632 960001")) {
            $0.dailyCall?.number = "01632 960001"
            $0.validationError = "Enter the phone number with its country code, like +44 7700 900123."
        }
        await store.send(.dailyCallNumberChanged("+44 1632 960 001")) {
            $0.dailyCall?.number = "+44 1632 960 001"
            $0.validationError = nil
        }
        await store.send(.saveButtonTapped)
        // The number goes as the server keeps it; no reminders go with a call.
        await store.receive(
            .delegate(
                .dailyCallSelected(
                    DailyCall(
                        hour: 9, minute: 0, timeZone: "Europe/Paris", attempts: 2, retryMinutes: 10, weekdays: [1, 2, 3, 4, 5],
                        number: "+441632960001"))))
    }

    @Test func choicesOutOfRangeAreRefusedUntilPutRight() async {
        let call = DailyCall(hour: 9, minute: 0, timeZone: "Europe/London")
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .none, dailyCall: call)) {
            IntervalSelectionFeature()
        }
        await store.send(.dailyCallAttemptsSelected(6)) {
            $0.dailyCall?.attempts = 6
            $0.validationError = "A daily call is tried 1 to 5 times."
        }
        // Exhaustive: a delegate action here would be an unexpected received action.
        await store.send(.saveButtonTapped)
        await store.send(.dailyCallAttemptsSelected(5)) {
            $0.dailyCall?.attempts = 5
            $0.validationError = nil
        }
        await store.send(.dailyCallRetrySelected(minutes: 90)) {
            $0.dailyCall?.retryMinutes = 90
            $0.validationError = "Tries of a daily call are 5 to 60 minutes apart."
        }
        await store.send(.saveButtonTapped)
        await store.send(.dailyCallRetrySelected(minutes: 60)) {
            $0.dailyCall?.retryMinutes = 60
            $0.validationError = nil
        }
        await store.send(.dailyCallWeekdaysSelected([])) {
            $0.dailyCall?.weekdays = []
            $0.validationError = "Choose at least one day for the call."
        }
        await store.send(.saveButtonTapped)
        await store.send(.dailyCallWeekdaysSelected([6, 7])) {
            $0.dailyCall?.weekdays = [6, 7]
            $0.validationError = nil
        }
        await store.send(.dailyCallNumberChanged("+15551230002")) { $0.dailyCall?.number = "+15551230002" }
        // A blank number rings her own phone.
        await store.send(.dailyCallNumberChanged("  ")) { $0.dailyCall?.number = nil }
        await store.send(.saveButtonTapped)
        await store.receive(
            .delegate(
                .dailyCallSelected(
                    DailyCall(hour: 9, minute: 0, timeZone: "Europe/London", attempts: 5, retryMinutes: 60, weekdays: [6, 7]))))
    }

    @Test func aCallAtNightIsHerChoiceAndNoReminderIsCheckedAgainstIt() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .twoHours)) {
            IntervalSelectionFeature()
        } withDependencies: {
            $0.timeZone = TimeZone(identifier: "Europe/London")!
        }
        await store.send(.intervalSelected(3600)) {
            $0.checkInInterval = 3600
            $0.validationError = "A reminder must come sooner than the check-in interval."
        }
        // The rules take any time of day; the two-hour reminder no longer counts.
        await store.send(.dailyCallTimeSelected(hour: 3, minute: 30)) {
            $0.dailyCall = DailyCall(hour: 3, minute: 30, timeZone: "Europe/London")
            $0.validationError = nil
        }
        await store.send(.saveButtonTapped)
        await store.receive(.delegate(.dailyCallSelected(DailyCall(hour: 3, minute: 30, timeZone: "Europe/London"))))
    }

    @Test func theCallsChoicesWaitForATime() async {
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .none)) {
            IntervalSelectionFeature()
        }
        // No call chosen yet: nothing changes, and the rhythm stays an interval.
        await store.send(.dailyCallAttemptsSelected(2))
        await store.send(.dailyCallNumberChanged("+441632960001"))
        #expect(store.state.schedule == .interval(seconds: 86400))
        #expect(store.state.showsReminders)
    }

    @Test func aSavedCallKeepsItsChoicesAndADeadlineOrIntervalReplacesIt() async {
        let call = DailyCall(
            hour: 9, minute: 0, timeZone: "America/New_York", attempts: 2, retryMinutes: 20, number: "+15551230002")
        let store = TestStore(initialState: IntervalSelectionFeature.State(checkInInterval: 86400, reminders: .none, dailyCall: call)) {
            IntervalSelectionFeature()
        } withDependencies: {
            $0.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        }
        // A new time keeps the call's zone, tries and number.
        await store.send(.dailyCallTimeSelected(hour: 8, minute: 15)) {
            $0.dailyCall?.hour = 8
            $0.dailyCall?.minute = 15
        }
        // A daily deadline takes the call's zone, not the device's, and replaces the call.
        await store.send(.dailyTimeSelected(hour: 21, minute: 0)) {
            $0.daily = .init(hour: 21, minute: 0, timeZone: "America/New_York")
            $0.dailyCall = nil
        }
        await store.send(.dailyCallTimeSelected(hour: 7, minute: 0)) {
            $0.dailyCall = DailyCall(hour: 7, minute: 0, timeZone: "America/New_York")
            $0.daily = nil
        }
        await store.send(.intervalSelected(8 * 3600)) {
            $0.checkInInterval = 8 * 3600
            $0.dailyCall = nil
        }
        #expect(store.state.showsReminders)
        await store.send(.saveButtonTapped)
        await store.receive(.delegate(.intervalsSelected(checkInInterval: 8 * 3600, reminders: .none)))
    }
}
