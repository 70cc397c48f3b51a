import Foundation
import LifeSignalModels

/// The daily call's rules that are not the plan's: the night guard, what each key on the call
/// means, and how a try ended, as responders read it.
public enum DailyCallRule {
    /// The night: 21:00 until 07:00 on her wall clock. No call rings in it unless she chose a
    /// time in it (a guard against a zone mix-up calling an old woman at 3 in the morning).
    public static let nightStartsAt = 21
    public static let nightEndsAt = 7

    /// Whether try `attempt` (1 for the first), due `now`, must not ring: it is night where she
    /// lives and that try's planned time is not. A try she chose into the night rings: a call
    /// at 20:50 tried every 15 minutes rings at 21:05 and 21:20 too; a call at 10:00 never rings
    /// at 22:00, whatever a zone mix-up computed.
    public static func isNightCall(now: Date, _ call: DailyCall, attempt: Int = 1) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: call.timeZone) ?? .gmt
        let hour = calendar.component(.hour, from: now)
        let planned = (call.hour * 60 + call.minute + (max(1, attempt) - 1) * call.retryMinutes) % (24 * 60)
        return isNight(hour: hour) && !isNight(hour: planned / 60)
    }

    /// The first call of `call` after `date` (on one of its days): when a consent call held
    /// back by the night rings instead.
    public static func nextCall(after date: Date, _ call: DailyCall) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: call.timeZone) ?? .gmt
        return Deadline.firstCall(onOrAfter: date.addingTimeInterval(1), call, calendar: calendar)
    }

    static func isNight(hour: Int) -> Bool { hour >= nightStartsAt || hour < nightEndsAt }

    /// What a key pressed on the daily call's menu does.
    public enum Key: Hashable, Sendable {
        /// 1: "I'm OK" — a check-in.
        case okay
        /// 2: "I'm OK, but please call me today" — a check-in, and her responders asked quietly.
        case okayCallMe
        /// 9: "I need help" — asks for a second 9 before the alert goes out.
        case help
        /// 8: "stop these calls" — asks for a second 8.
        case stop
        /// 0: the menu again.
        case repeatMenu
        /// Any other key, or none: the menu again.
        case other
    }

    public static func key(_ digits: String) -> Key {
        switch digits.trimmingCharacters(in: .whitespaces) {
        case "1": .okay
        case "2": .okayCallMe
        case "9": .help
        case "8": .stop
        case "0": .repeatMenu
        default: .other
        }
    }

    /// How one try of the call ended, from its delivery.
    public enum Outcome: String, Hashable, Sendable {
        /// Picked up, and no key that counts was pressed (a person, a machine or an open line).
        case answeredNoKey = "answered_no_key"
        case noAnswer = "no_answer"
        case busy
        /// The provider refused it, or it never went out.
        case notPlaced = "not_placed"
        /// Handed to the provider; no word yet of how it ended.
        case unknown
    }

    /// The outcome of a try whose delivery has `status` and, when it failed, `reason` (the
    /// provider's words as stored: "The line was busy.", "Nobody answered the call.").
    public static func outcome(status: Delivery.Status, reason: String?) -> Outcome {
        switch status {
        case .delivered: return .answeredNoKey
        case .queued: return .notPlaced
        case .sent: return .unknown
        case .failed:
            let reason = reason ?? ""
            if reason.hasPrefix(busyReason) { return .busy }
            if reason.hasPrefix(noAnswerReason) { return .noAnswer }
            return .notPlaced
        }
    }

    /// The stored reasons of a call's provider failures (see the Twilio status callback).
    public static let busyReason = "The line was busy."
    public static let noAnswerReason = "Nobody answered the call."
}
