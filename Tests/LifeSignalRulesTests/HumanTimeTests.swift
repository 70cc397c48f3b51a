import Foundation
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
