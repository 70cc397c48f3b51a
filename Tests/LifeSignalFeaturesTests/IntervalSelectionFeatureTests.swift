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
}
