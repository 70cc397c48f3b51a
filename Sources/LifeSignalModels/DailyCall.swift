import Foundation

/// "Call me every day at 09:00": LifeSignal rings her phone (a landline is enough) and the
/// call is the check-in. Key 1 on the call checks her in; without it the call is tried again
/// `retryMinutes` later, `attempts` times in all, and the deadline follows the last try by
/// ``answerMinutes`` (09:00, three tries 15 minutes apart: deadline 09:40).
public struct DailyCall: Hashable, Sendable {
    /// When the first call rings, on her wall clock in `timeZone`.
    public var hour: Int
    public var minute: Int
    /// IANA time zone name.
    public var timeZone: String
    /// How many times the call is placed when nobody presses a key (1–5).
    public var attempts: Int
    /// Minutes between tries (5–60).
    public var retryMinutes: Int
    /// The days she is called, ISO numbered (1 Monday … 7 Sunday); every day by default.
    public var weekdays: Set<Int>
    /// The number rung; nil rings the phone number she signs in with. Any other number must
    /// be one of her proven call or text channels: calls never go to a stranger's phone.
    public var number: String?

    public static let defaultAttempts = 3
    public static let defaultRetryMinutes = 15
    public static let attemptRange = 1...5
    public static let retryRange = 5...60
    /// The minutes between tries the apps offer, all inside ``retryRange``.
    public static let retryPresets = [5, 10, 15, 20, 30, 45, 60]
    public static let everyDay: Set<Int> = Set(1...7)
    /// How long after the last try the deadline falls: time to press a key on it.
    public static let answerMinutes = 10

    public init(
        hour: Int, minute: Int, timeZone: String, attempts: Int = defaultAttempts, retryMinutes: Int = defaultRetryMinutes,
        weekdays: Set<Int> = everyDay, number: String? = nil
    ) {
        self.hour = hour
        self.minute = minute
        self.timeZone = timeZone
        self.attempts = attempts
        self.retryMinutes = retryMinutes
        self.weekdays = weekdays
        self.number = number
    }

    /// Minutes from the first call to the deadline: the tries, then ``answerMinutes``.
    public var deadlineOffsetMinutes: Int { (attempts - 1) * retryMinutes + Self.answerMinutes }

    /// `HH:MM` of the first call.
    public var time: String { String(format: "%02d:%02d", hour, minute) }

    /// The API's weekday names, ISO order.
    public static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}
