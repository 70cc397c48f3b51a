/// The time left to a deadline as the check-in screen shows it: days, hours, minutes and
/// seconds, each with its unit in the right number ("1 Day", "2 Hours").
public struct Countdown: Hashable, Sendable {
    public var days: Int
    public var hours: Int
    public var minutes: Int
    public var seconds: Int
    /// Past the deadline: every part is zero and the screen says so instead.
    public var isOverdue: Bool

    /// From whole seconds left (negative past the deadline).
    public init(secondsLeft: Int) {
        let left = max(0, secondsLeft)
        days = left / 86_400
        hours = left % 86_400 / 3600
        minutes = left % 3600 / 60
        seconds = left % 60
        isOverdue = secondsLeft < 0
    }

    /// The four parts with their units, largest first.
    public var parts: [(value: Int, unit: String)] {
        [
            (days, days == 1 ? "Day" : "Days"), (hours, hours == 1 ? "Hour" : "Hours"),
            (minutes, minutes == 1 ? "Minute" : "Minutes"), (seconds, seconds == 1 ? "Second" : "Seconds"),
        ]
    }
}
