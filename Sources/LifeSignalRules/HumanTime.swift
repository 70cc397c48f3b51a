import Foundation
import LifeSignalLanguage

/// How every time a person reads is written: in the reader's own time zone and language, the
/// way people say it — "today at 21:30", "heute um 09:30", "mañana a las 09:30", "Tue 9 Dec,
/// 09:30" (with the year when it is not this one). A time about someone in another zone says
/// both: "today at 09:30 their time (08:30 yours)". The words come from the catalogue
/// (`time.*`), the day's name and order from the reader's locale; the clock is 24-hour in
/// every language. The JSON API keeps ISO 8601 UTC; this is for words.
public enum HumanTime {
    /// `instant` for a reader in `zone`, relative to `now`.
    public static func phrase(_ instant: Date, in zone: TimeZone, now: Date, words: Words = .english) -> String {
        let calendar = calendar(zone)
        let time = clock(instant, in: zone)
        let day = calendar.startOfDay(for: instant)
        let today = calendar.startOfDay(for: now)
        let days = calendar.dateComponents([.day], from: today, to: day).day ?? 0
        switch days {
        case 0: return words("time.today", ["time": time])
        case -1: return words("time.yesterday", ["time": time])
        case 1: return words("time.tomorrow", ["time": time])
        default:
            let sameYear = calendar.component(.year, from: instant) == calendar.component(.year, from: now)
            return words("time.date", ["date": date(instant, zone, withYear: !sameYear, words), "time": time])
        }
    }

    /// `instant` for a reader in `reader`'s zone about someone in `subject`'s: one phrase when
    /// both clocks read the same, else the subject's clock first, then the reader's.
    public static func phrase(_ instant: Date, reader: TimeZone, subject: TimeZone, now: Date, words: Words = .english) -> String {
        let theirs = clock(instant, in: subject)
        let yours = clock(instant, in: reader)
        guard theirs != yours else { return phrase(instant, in: reader, now: now, words: words) }
        let theirPhrase = phrase(instant, in: subject, now: now, words: words)
        return words("time.bothClocks", ["theirs": theirPhrase, "yours": yours])
    }

    /// "Tue 9 Dec 2026, 09:30": for records read long after (the timeline), where "today"
    /// would stop being true.
    public static func dated(_ instant: Date, in zone: TimeZone, words: Words = .english) -> String {
        words("time.date", ["date": date(instant, zone, withYear: true, words), "time": clock(instant, in: zone)])
    }

    /// "09:30": the 24-hour wall clock in `zone`.
    public static func clock(_ instant: Date, in zone: TimeZone) -> String {
        format(instant, zone, "HH:mm", Locale(identifier: "en_GB"))
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

    /// "Tue 9 Dec" in English as it always was; in another language the locale's own order
    /// and names ("Di., 9. Dez.", "mar, 9 dic").
    private static func date(_ instant: Date, _ zone: TimeZone, withYear: Bool, _ words: Words) -> String {
        if words.rendered.primary == "en" {
            return format(instant, zone, withYear ? "EEE d MMM yyyy" : "EEE d MMM", Locale(identifier: "en_GB"))
        }
        let locale = words.locale
        let pattern = DateFormatter.dateFormat(fromTemplate: withYear ? "EEEdMMMyyyy" : "EEEdMMM", options: 0, locale: locale)
        return format(instant, zone, pattern ?? "EEE d MMM", locale)
    }

    private static func format(_ instant: Date, _ zone: TimeZone, _ pattern: String, _ locale: Locale) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: instant)
    }
}
