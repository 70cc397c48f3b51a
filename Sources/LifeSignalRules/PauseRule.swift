import Foundation
import LifeSignalModels

/// Days off: which pauses hold when, where a period starts after one, and which new pause is
/// allowed.
public enum PauseRule {
    /// When the pause holding at `date` ends, following on through any pause that starts the
    /// moment it ends; nil when none holds.
    public static func pausedUntil(at date: Date, _ pauses: [Pause]) -> Date? {
        guard var end = pauses.first(where: { $0.covers(date) })?.until else { return nil }
        while let next = pauses.first(where: { $0.covers(end) }) { end = next.until }
        return end
    }

    /// The pause holding at `date`, if any.
    public static func current(at date: Date, _ pauses: [Pause]) -> Pause? {
        pauses.first { $0.covers(date) }
    }

    /// The first pause that begins after `date`.
    public static func next(after date: Date, _ pauses: [Pause]) -> Pause? {
        pauses.filter { $0.from > date }.min { $0.from < $1.from }
    }

    /// Where her period starts and the deadline her rhythm gives, with her pauses.
    ///
    /// The period starts at her last check-in (or when her account was made). A pause that
    /// begins before the deadline and ends after the period began acts like a check-in at its
    /// end: the period starts again there, so she never comes back from days off already
    /// overdue, and a deadline inside a pause never falls. A pause planned ahead that begins
    /// only after the deadline does not excuse it: she was late before it began. One she
    /// started at once ("pause now") does, even when late: setting it was her own word.
    public static func period(
        from start: Date, _ pauses: [Pause], deadline: (Date) -> Date
    ) -> (start: Date, deadline: Date) {
        var start = start
        var due = deadline(start)
        // Each round moves past one pause, and pauses never overlap: one more round than there
        // are pauses always ends.
        for _ in 0...pauses.count {
            guard let pause = pauses.filter({ ($0.from < due || $0.startedWhenSet) && $0.until > start }).max(by: { $0.until < $1.until })
            else {
                break
            }
            start = pause.until
            due = deadline(start)
        }
        return (start, due)
    }

    /// The pauses worth keeping: those that have not ended, and an ended one that began after
    /// her last check-in (her period still starts at its end).
    public static func kept(_ pauses: [Pause], lastCheckIn: Date, now: Date) -> [Pause] {
        pauses.filter { $0.until > now || $0.until > lastCheckIn }.sorted { $0.from < $1.from }
    }

    /// Why a new pause cannot be added: nil when it can.
    public enum Refusal: Error, Hashable, Sendable {
        /// She already holds ``Pause/upcomingLimit`` that have not ended.
        case tooMany
        /// It overlaps one she holds.
        case overlaps(Pause)
    }

    /// Checks a new pause against the ones she holds (the dates themselves were validated).
    public static func refusal(adding from: Date, until: Date, to pauses: [Pause], now: Date) -> Refusal? {
        if let clash = pauses.first(where: { $0.from < until && from < $0.until && $0.until > now }) {
            return .overlaps(clash)
        }
        if pauses.filter({ $0.until > now }).count >= Pause.upcomingLimit { return .tooMany }
        return nil
    }
}
