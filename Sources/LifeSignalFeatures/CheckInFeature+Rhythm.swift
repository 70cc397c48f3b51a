import Foundation
import LifeSignalModels

/// Her rhythm on the check-in screen as one value: what a change of it replaces, and what is
/// put back when saving that change fails (``CheckInFeature/State/rhythmBeforeSave``).
extension CheckInFeature.State {
    /// Her rhythm as this screen shows it, all that a change of it touches at once.
    public struct Rhythm: Equatable, Sendable {
        public var checkInInterval: TimeInterval
        public var daily: IntervalSelectionFeature.DailyTime?
        public var dailyCall: DailyCall?
        public var reminders: ReminderChoice
        public var nextCheckInDue: Date?
    }

    /// The rhythm shown now; setting it shows another (the one kept before a failed save).
    public var rhythm: Rhythm {
        get {
            Rhythm(
                checkInInterval: checkInInterval, daily: daily, dailyCall: dailyCall, reminders: reminders,
                nextCheckInDue: nextCheckInDue)
        }
        set {
            (checkInInterval, daily, dailyCall) = (newValue.checkInInterval, newValue.daily, newValue.dailyCall)
            (reminders, nextCheckInDue) = (newValue.reminders, newValue.nextCheckInDue)
        }
    }

    /// Keeps what is shown before a change that is saved next (the first such change, while
    /// earlier ones are still on their way).
    mutating func changingRhythm() {
        if rhythmBeforeSave == nil { rhythmBeforeSave = rhythm }
    }
}
