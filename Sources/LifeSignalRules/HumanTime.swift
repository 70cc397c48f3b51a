import Foundation

/// How every time a person reads is written: in the reader's own time zone, the way people say
/// it — "today at 21:30", "yesterday at 09:30", "tomorrow at 09:30", "Tue 9 Dec, 09:30" (with
/// the year when it is not this one). A time about someone in another zone says both: "today
/// at 09:30 their time (08:30 yours)". The JSON API keeps ISO 8601 UTC; this is for words.
public enum HumanTime {
    /// `instant` for a reader in `zone`, relative to `now`.
    public static func phrase(_ instant: Date, in zone: TimeZone, now: Date) -> String {
        let calendar = calendar(zone)
        let time = clock(instant, in: zone)
        let day = calendar.startOfDay(for: instant)
        let today = calendar.startOfDay(for: now)
        let days = calendar.dateComponents([.day], from: today, to: day).day ?? 0
        switch days {
        case 0: return "today at \(time)"
        case -1: return "yesterday at \(time)"
        case 1: return "tomorrow at \(time)"
        default:
            let sameYear = calendar.component(.year, from: instant) == calendar.component(.year, from: now)
            return format(instant, zone, sameYear ? "EEE d MMM" : "EEE d MMM yyyy") + ", " + time
        }
    }

    /// `instant` for a reader in `reader`'s zone about someone in `subject`'s: one phrase when
    /// both clocks read the same, else the subject's clock first, then the reader's.
    public static func phrase(_ instant: Date, reader: TimeZone, subject: TimeZone, now: Date) -> String {
        let theirs = clock(instant, in: subject)
        let yours = clock(instant, in: reader)
        guard theirs != yours else { return phrase(instant, in: reader, now: now) }
        let theirPhrase = phrase(instant, in: subject, now: now)
        return "\(theirPhrase) their time (\(yours) yours)"
    }

    /// "Tue 9 Dec 2026, 09:30": for records read long after (the timeline), where "today"
    /// would stop being true.
    public static func dated(_ instant: Date, in zone: TimeZone) -> String {
        format(instant, zone, "EEE d MMM yyyy") + ", " + clock(instant, in: zone)
    }

    /// "09:30": the 24-hour wall clock in `zone`.
    public static func clock(_ instant: Date, in zone: TimeZone) -> String {
        format(instant, zone, "HH:mm")
    }

    /// A zone from its IANA name; UTC for a name this system does not know.
    public static func zone(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
    }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    private static func format(_ instant: Date, _ zone: TimeZone, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: instant)
    }
}
