import Foundation
import LifeSignalLanguage
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// The one rule for writing times for people: the reader's zone, words people use, both clocks
/// when the person written about lives elsewhere.
@Suite struct HumanTimeTests {
    static func at(_ text: String) -> Date { ISODate.parse(text)! }

    @Test(
        "phrases in the reader's zone",
        arguments: [
            // instant, zone, now, expected
            ("2026-12-09T21:30:00Z", "Europe/London", "2026-12-09T22:00:00Z", "today at 21:30"),
            ("2026-12-09T08:30:00Z", "Europe/Paris", "2026-12-10T08:00:00Z", "yesterday at 09:30"),
            ("2026-12-10T08:30:00Z", "Europe/Paris", "2026-12-09T20:00:00Z", "tomorrow at 09:30"),
            ("2026-12-15T08:30:00Z", "Europe/Paris", "2026-12-09T20:00:00Z", "Tue 15 Dec, 09:30"),
            ("2027-01-05T08:30:00Z", "Europe/Paris", "2026-12-09T20:00:00Z", "Tue 5 Jan 2027, 09:30"),
            // Around midnight: 23:30 UTC is already tomorrow in Paris, still today in New York.
            ("2026-12-09T23:30:00Z", "Europe/Paris", "2026-12-09T12:00:00Z", "tomorrow at 00:30"),
            ("2026-12-09T23:30:00Z", "America/New_York", "2026-12-09T12:00:00Z", "today at 18:30"),
            ("2026-12-09T23:59:00Z", "UTC", "2026-12-09T00:00:00Z", "today at 23:59"),
            // DST: the Sunday of spring-forward in Paris (29 March 2026) and fall-back in New York.
            ("2026-03-29T07:30:00Z", "Europe/Paris", "2026-03-29T06:00:00Z", "today at 09:30"),
            ("2026-03-28T08:30:00Z", "Europe/Paris", "2026-03-29T06:00:00Z", "yesterday at 09:30"),
            ("2026-11-01T14:30:00Z", "America/New_York", "2026-11-01T05:30:00Z", "today at 09:30"),
            ("2026-11-01T05:30:00Z", "America/New_York", "2026-11-01T12:00:00Z", "today at 01:30"),
            // An unknown zone reads as UTC.
            ("2026-12-09T21:30:00Z", "Mars/Olympus", "2026-12-09T22:00:00Z", "today at 21:30"),
        ])
    func phrases(instant: String, zone: String, now: String, expected: String) {
        #expect(HumanTime.phrase(Self.at(instant), in: HumanTime.zone(zone), now: Self.at(now)) == expected)
    }

    @Test(
        "about someone elsewhere: their clock, then yours",
        arguments: [
            // Ada in Paris, due 09:30 her time; Bob reads in London.
            ("Europe/London", "Europe/Paris", "today at 09:30 their time (08:30 yours)"),
            // Same clock: one phrase.
            ("Europe/Madrid", "Europe/Paris", "today at 09:30"),
            // Across the date line of midnight: her 09:30 is his previous evening.
            ("America/Los_Angeles", "Europe/Paris", "today at 09:30 their time (00:30 yours)"),
        ])
    func crossZone(reader: String, subject: String, expected: String) {
        let due = Self.at("2026-12-09T08:30:00Z")
        let now = Self.at("2026-12-09T08:00:00Z")
        #expect(HumanTime.phrase(due, reader: HumanTime.zone(reader), subject: HumanTime.zone(subject), now: now) == expected)
    }
}

/// The same rule in the reader's language: the catalogue's words, the locale's day names.
@Suite struct HumanTimeLanguageTests {
    static func at(_ text: String) -> Date { ISODate.parse(text)! }
    static let paris = HumanTime.zone("Europe/Paris")

    @Test(
        "phrases in each language",
        arguments: [
            ("de", "2026-12-09T08:30:00Z", "heute um 09:30"),
            ("de-AT", "2026-12-10T08:30:00Z", "morgen um 09:30"),
            ("es", "2026-12-10T08:30:00Z", "mañana a las 09:30"),
            ("fr", "2026-12-08T08:30:00Z", "hier à 09:30"),
            ("ar", "2026-12-09T08:30:00Z", "اليوم الساعة 09:30"),
            ("ja", "2026-12-09T08:30:00Z", "today at 09:30"),
        ])
    func phrases(tag: String, instant: String, expected: String) {
        let words = Words(Language(tag)!)
        #expect(HumanTime.phrase(Self.at(instant), in: Self.paris, now: Self.at("2026-12-09T07:00:00Z"), words: words) == expected)
    }

    /// Another day: the locale's names and order, the clock never with U+202F or a no-break space.
    @Test func otherDaysInTheLocale() {
        let now = Self.at("2026-12-09T07:00:00Z")
        let later = Self.at("2026-12-15T08:30:00Z")
        let german = HumanTime.phrase(later, in: Self.paris, now: now, words: Words(Language("de")!))
        #expect(german.contains("15") && german.contains("Dez") && german.hasSuffix(", 09:30"))
        let spanish = HumanTime.phrase(later, in: Self.paris, now: now, words: Words(Language("es")!))
        #expect(spanish.contains("15") && spanish.contains("dic") && spanish.hasSuffix(", 09:30"))
        let french = HumanTime.dated(later, in: Self.paris, words: Words(Language("fr")!))
        #expect(french.contains("déc") && french.contains("2026"))
        let arabic = HumanTime.phrase(later, in: Self.paris, now: now, words: Words(Language("ar")!))
        #expect(arabic.contains("15") && arabic.hasSuffix("، 09:30"))
        #expect(HumanTime.phrase(later, in: Self.paris, now: now) == "Tue 15 Dec, 09:30")
    }

    @Test func bothClocksInGerman() {
        let words = Words(Language("de")!)
        let text = HumanTime.phrase(
            Self.at("2026-12-09T08:30:00Z"), reader: HumanTime.zone("Europe/London"), subject: Self.paris,
            now: Self.at("2026-12-09T08:00:00Z"), words: words)
        #expect(text == "heute um 09:30 Ortszeit (08:30 bei Ihnen)")
    }
}
