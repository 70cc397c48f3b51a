import Foundation
import LifeSignalLanguage
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// A fix as a responder reads it: checked, worded, linked, and warned about when old or coarse.
@Suite("Location")
struct LocationRuleTests {
    static let now = Date(timeIntervalSince1970: 1_795_685_400)  // 2026-11-26T09:30:00Z
    static func fix(ago seconds: TimeInterval, meters: Double = 35, source: LocationSource = .sos) -> LocationFix {
        LocationFix(latitude: 48.2081743, longitude: 16.3738189, accuracyMeters: meters, capturedAt: now - seconds, source: source)
    }

    struct Reading: Sendable, CustomTestStringConvertible {
        var ago: TimeInterval
        var meters: Double
        var sentence: String
        var warnings: [String] = []
        var testDescription: String { sentence }
    }

    static let readings: [Reading] = [
        Reading(ago: 0, meters: 35, sentence: "Last location: 09:30, just now, within 35 m, from Ada's SOS"),
        Reading(ago: 5 * 60, meters: 12, sentence: "Last location: 09:25, 5 min ago, within 12 m, from Ada's SOS"),
        Reading(
            ago: 2 * 3600 + 10 * 60, meters: 35, sentence: "Last location: 07:20, 2 h 10 min ago, within 35 m, from Ada's SOS",
            warnings: ["This is over an hour old: Ada may have moved since."]),
        Reading(
            ago: 3600, meters: 501, sentence: "Last location: 08:30, 1 h 0 min ago, within 501 m, from Ada's SOS",
            warnings: ["This is only a rough area (within 501 m), not an exact place."]),
        Reading(
            ago: 61 * 60, meters: 2000, sentence: "Last location: 08:29, 1 h 1 min ago, within 2000 m, from Ada's SOS",
            warnings: [
                "This is over an hour old: Ada may have moved since.",
                "This is only a rough area (within 2000 m), not an exact place.",
            ]),
    ]

    @Test(arguments: readings)
    func sentenceAndWarnings(_ reading: Reading) {
        let fix = Self.fix(ago: reading.ago, meters: reading.meters)
        let utc = TimeZone(identifier: "UTC")!
        #expect(LocationRule.sentence(fix, name: "Ada", now: Self.now, zone: utc, words: .english) == reading.sentence)
        #expect(LocationRule.warnings(fix, name: "Ada", now: Self.now, words: .english) == reading.warnings)
    }

    @Test func linksOpenAMapWithoutFetchingOne() {
        let fix = Self.fix(ago: 0)
        #expect(LocationRule.geoLink(fix) == "geo:48.2081743,16.3738189")
        #expect(LocationRule.mapLink(fix) == "https://www.openstreetmap.org/?mlat=48.2081743&mlon=16.3738189#map=17/48.2081743/16.3738189")
        let west = LocationFix(latitude: -33.5, longitude: -70, accuracyMeters: 10, capturedAt: Self.now, source: .planStart)
        #expect(LocationRule.geoLink(west) == "geo:-33.5,-70")
    }

    @Test func everySourceIsSaidInEveryLanguage() {
        for language in ["en", "de", "es", "fr", "ar"] {
            let words = Words(Language(language)!)
            for source in LocationSource.allCases {
                let said = LocationRule.source(source, name: "Ada", words: words)
                #expect(said.contains("Ada") && !said.contains("location.source"), "\(language) \(source)")
            }
        }
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var latitude = 0.0
        var longitude = 0.0
        var meters = 5.0
        var secondsAgo = 0.0
        var field: String
        var testDescription: String { field }
    }

    static let refused: [Refused] = [
        Refused(latitude: 91, field: "latitude"), Refused(latitude: -90.5, field: "latitude"),
        Refused(longitude: 180.5, field: "longitude"), Refused(meters: 0, field: "accuracyMeters"),
        Refused(meters: 100_001, field: "accuracyMeters"), Refused(secondsAgo: -301, field: "capturedAt"),
        Refused(secondsAgo: 86401, field: "capturedAt"),
    ]

    @Test(arguments: refused)
    func aFixThatIsNotOneIsRefused(_ case_: Refused) {
        #expect {
            _ = try LocationRule.fix(
                latitude: case_.latitude, longitude: case_.longitude, accuracyMeters: case_.meters,
                capturedAt: Self.now - case_.secondsAgo, source: .sos, now: Self.now)
        } throws: { ($0 as? ValidationError)?.field == case_.field }
    }

    @Test func aFixIsKeptToACentimetreAndNeverAheadOfTheServer() throws {
        let fix = try LocationRule.fix(
            latitude: 48.208174349, longitude: 16.37381891, accuracyMeters: 34.6, capturedAt: Self.now + 120, source: .checkIn,
            now: Self.now)
        #expect(fix.latitude == 48.2081743)
        #expect(fix.longitude == 16.3738189)
        #expect(fix.accuracyMeters == 35)
        #expect(fix.capturedAt == Self.now)
        #expect(try LocationRule.captureTime(nil, now: Self.now) == Self.now)
    }
}
