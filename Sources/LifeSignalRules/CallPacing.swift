import Foundation
import LifeSignalModels

/// How fast calls go to the provider: at most `callsPerSecond` in each second of the clock.
///
/// The provider takes calls at its own rate (Twilio: 1 call per second per account unless the
/// operator raised it) and queues the rest first come, first served, where an SOS would wait
/// behind every daily call of the minute. Pacing them here keeps the queue ours, so it can be
/// taken in the order that matters: alerts, then daily calls, then everything else.
///
/// The slots are whole seconds of the clock: the `k`-th call of a backlog starting at a whole
/// second `t` goes out during second `t + k / callsPerSecond`. A late worker loses no second
/// but its own, so the spread never drifts; and nothing depends on how often the worker looks.
public enum CallPacing {
    /// Twilio's default for an account's outbound API calls (its CPS glossary entry: "By
    /// default each account is granted 1 CPS for Programmable Voice API calls").
    public static let twilioDefaultCallsPerSecond = 1

    /// The second (counted from `t`, the whole second the backlog starts in) in which the call
    /// at `index` of the backlog (0-based) goes out: its slot.
    public static func slot(index: Int, callsPerSecond: Int) -> Int {
        max(0, index) / max(1, callsPerSecond)
    }

    /// How long after the minute the last of `count` calls due at that minute goes out, at the
    /// latest: the end of its slot. Zero for none.
    public static func spread(dueAtSameMinute count: Int, callsPerSecond: Int) -> TimeInterval {
        guard count > 0 else { return 0 }
        return TimeInterval(slot(index: count - 1, callsPerSecond: callsPerSecond) + 1)
    }

    /// "Your call may come up to N minutes after 09:00": the spread in whole minutes, rounded
    /// up; nil while every call of the minute goes out within it (nothing worth saying).
    public static func previewMinutes(dueAtSameMinute count: Int, callsPerSecond: Int) -> Int? {
        let seconds = spread(dueAtSameMinute: count, callsPerSecond: callsPerSecond)
        guard seconds > 60 else { return nil }
        return Int((seconds / 60).rounded(.up))
    }

    /// Which sends wait their turn when slots are short: alerts (0), then daily calls and
    /// reminders (1), then everything else (2).
    public static func rank(_ kind: LifeSignalModels.Notification.Kind) -> Int {
        if kind.category == .alerts { return 0 }
        return kind == .dailyCall || kind == .reminder ? 1 : 2
    }

    /// The slots of one second, as a worker uses them: which second it is and how many of its
    /// slots are taken.
    public struct Second: Sendable, Equatable {
        public var callsPerSecond: Int
        /// The whole second (since 1970) the count is for.
        public private(set) var second: Int64 = .min
        public private(set) var used = 0

        public init(callsPerSecond: Int) { self.callsPerSecond = max(1, callsPerSecond) }

        /// Slots still free at `now`.
        public func free(at now: Date) -> Int {
            Self.second(of: now) == second ? max(0, callsPerSecond - used) : callsPerSecond
        }

        /// Takes a slot at `now`; false when this second's are all taken.
        public mutating func take(at now: Date) -> Bool {
            let current = Self.second(of: now)
            if current != second {
                // A clock that went back keeps the later second's count: never a second burst.
                guard current > second else { return used < callsPerSecond ? take() : false }
                second = current
                used = 0
            }
            return take()
        }

        private mutating func take() -> Bool {
            guard used < callsPerSecond else { return false }
            used += 1
            return true
        }

        /// When the next second starts: the next slot, when this second's are taken.
        public static func nextSecond(after now: Date) -> Date {
            Date(timeIntervalSince1970: TimeInterval(second(of: now) + 1))
        }

        static func second(of date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }
    }
}
