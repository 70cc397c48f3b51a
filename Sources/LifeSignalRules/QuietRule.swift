import Foundation
import LifeSignalModels

/// When quiet hours hold: on her wall clock, from their start up to (not including) their end,
/// across midnight when the start is later than the end.
public enum QuietRule {
    public static func contains(_ date: Date, _ quiet: QuietHours, calendar: Calendar) -> Bool {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        if quiet.fromMinute < quiet.toMinute { return minute >= quiet.fromMinute && minute < quiet.toMinute }
        return minute >= quiet.fromMinute || minute < quiet.toMinute
    }

    /// The first end of quiet hours after `date` (their end time on her wall clock).
    public static func end(after date: Date, _ quiet: QuietHours, calendar: Calendar) -> Date {
        Deadline.occurrence(onOrAfter: date, hour: quiet.toMinute / 60, minute: quiet.toMinute % 60, calendar: calendar)
    }
}
