import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

@Suite("Validation")
struct ValidationTests {
    @Test(
        "names",
        arguments: [
            ("Ada", true), ("  Jean-Luc ", true), ("O'Brien", true), ("Zoë", true), ("李雷", true),
            ("A", false), ("", false), (String(repeating: "a", count: 51), false), ("R2D2", false), ("--", false),
            ("Bob!", false),
        ])
    func names(input: String, valid: Bool) {
        #expect(((try? Validation.name(input, field: "firstName")) != nil) == valid)
    }

    /// 60 KB of combining marks on one letter is 2 characters to `count`, so the byte and
    /// mark limits are what stop it.
    static let nameLimitCases: [(String, Bool)] = [
        ("a" + String(repeating: "\u{0301}", count: 30_000) + "b", false),
        ("Zoe\u{0301}", true), ("Ngu\u{031B}\u{0303}yen", true), ("a\u{0301}\u{0302}\u{0303}\u{0304}b", false),
        (String(repeating: "李", count: 50), true), (String(repeating: "李", count: 51), false),
        (String(repeating: "𝒜", count: 50), true),
        (String(repeating: "é", count: 50), true), (String(repeating: "e\u{0301}\u{0302}", count: 50), false),
        ("Ada\nINFO admin signed in", false), ("Ada\rLovelace", false), ("Ada\u{0}", false), ("Ada\u{85}x", false),
        ("Ada\u{2028}x", false), ("Ada\u{202E}ecalevol", false), ("Ada\tLovelace", false),
    ]

    @Test("names are bounded in bytes and stacked marks, and carry no control characters", arguments: nameLimitCases)
    func nameLimits(input: String, valid: Bool) throws {
        if valid {
            let name = try Validation.name(input, field: "firstName")
            #expect(name.utf8.count <= Validation.nameByteLimit)
        } else {
            #expect(throws: ValidationError.self) { try Validation.name(input, field: "firstName") }
        }
    }

    static let noteLimitCases: [(String, Bool)] = [
        (String(repeating: "a", count: 500), true), (String(repeating: "a", count: 501), false),
        (String(repeating: "李", count: 500), true),  // 1,500 bytes
        (String(repeating: "😀", count: 500), true),  // 2,000 bytes
        (String(repeating: "😀", count: 499) + "ab", false),  // 501 characters
        (String(repeating: "👩‍👩‍👧‍👦", count: 100), false),  // 100 characters, 2,500 bytes
        ("a" + String(repeating: "\u{0301}", count: 5000), false),
        ("Allergic to penicillin.\r\nKey under the mat.", true), ("Tab\tseparated", true),
        ("\r\n" + String(repeating: "a", count: 499), false),  // 501 code points as sent (schemathesis found it)
        ("Bell\u{7}", false), ("Escape\u{1B}[31m", false), ("RTL\u{202E}", false),
    ]

    @Test("the emergency note is bounded in characters and bytes, keeps line breaks, refuses control characters", arguments: noteLimitCases)
    func noteLimits(input: String, valid: Bool) throws {
        if valid {
            let note = try Validation.emergencyNote(input)
            #expect(note.utf8.count <= Validation.noteByteLimit)
            #expect(!note.contains("\r"))
        } else {
            #expect(throws: ValidationError.self) { try Validation.emergencyNote(input) }
        }
    }

    @Test(
        "a code field keeps ASCII digits only, at most six",
        arguments: [
            ("12 34-567", "123456"), ("", ""), ("abc", ""), ("٣٤٥٦٧٨", ""), ("0000001", "000000"), (" 42 ", "42"),
        ])
    func typedCode(typed: String, kept: String) {
        #expect(Validation.typedCode(typed) == kept)
    }

    @Test func clippedTextIsSafeToStoreAndShow() {
        #expect(Text.clipped("Ada's iPhone", characters: 100, bytes: 400) == "Ada's iPhone")
        #expect(Text.clipped("Pixel\r\n2026-11-23 INFO forged", characters: 100, bytes: 400) == "Pixel  2026-11-23 INFO forged")
        let heavy = Text.clipped("a" + String(repeating: "\u{0301}", count: 30_000), characters: 100, bytes: 400)
        #expect(heavy == "a\u{0301}\u{0301}\u{0301}")
        #expect(Text.clipped(String(repeating: "😀", count: 200), characters: 100, bytes: 400).count == 100)
        #expect(Text.clipped(String(repeating: "😀", count: 200), characters: 100, bytes: 10).utf8.count == 8)
        #expect(Text.clipped("\u{202E}evil", characters: 100, bytes: 400) == "evil")
    }

    @Test(
        "phone numbers normalise to E.164",
        arguments: [
            ("+44 7700 900123", "+447700900123"), ("+1 (415) 555-0123", "+14155550123"), ("+33.6.12.34.56.78", "+33612345678"),
        ])
    func phones(input: String, expected: String) throws {
        #expect(try Validation.phone(input) == expected)
    }

    @Test("bad phone numbers", arguments: ["07700 900123", "+0123456789", "+12", "+1234567890123456", "+44abc", ""])
    func badPhones(input: String) {
        #expect(throws: ValidationError.self) { try Validation.phone(input) }
    }

    @Test(
        "schedules and reminders",
        arguments: [
            (CheckInSchedule.interval(seconds: 3600), ReminderChoice.thirtyMinutes, true),
            (.interval(seconds: 3600), .twoHours, false),
            (.interval(seconds: 7200), .twoHours, false),
            (.interval(seconds: 7201), .both, true),
            (.interval(seconds: 3599), .none, false),
            (.interval(seconds: 7 * 86400 + 1), .none, false),
            (.daily(hour: 9, minute: 30, timeZone: "Europe/Paris"), .both, true),
            (.daily(hour: 24, minute: 0, timeZone: "Europe/Paris"), .none, false),
            (.daily(hour: 9, minute: 30, timeZone: "Mars/Olympus"), .none, false),
        ])
    func schedules(schedule: CheckInSchedule, reminders: ReminderChoice, valid: Bool) {
        #expect(((try? Validation.schedule(schedule, reminders: reminders)) != nil) == valid)
    }

    @Test func graceNoteAndPause() {
        #expect(throws: ValidationError.self) { try Validation.grace(61) }
        #expect(throws: ValidationError.self) { try Validation.grace(-1) }
        #expect(throws: Never.self) { try Validation.grace(0) }
        #expect(throws: ValidationError.self) { try Validation.emergencyNote(String(repeating: "x", count: 501)) }
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(throws: ValidationError.self) { try Validation.pause(from: now, until: now, now: now) }
        #expect(throws: ValidationError.self) { try Validation.pause(from: now, until: now.addingTimeInterval(31 * 86400), now: now) }
        #expect(throws: Never.self) { try Validation.pause(from: now, until: now.addingTimeInterval(30 * 86400), now: now) }
        // Planned ahead: 30 days from its own start, starting within a year, never in the past.
        let later = now.addingTimeInterval(100 * 86400)
        #expect(throws: Never.self) { try Validation.pause(from: later, until: later.addingTimeInterval(30 * 86400), now: now) }
        #expect(throws: ValidationError.self) { try Validation.pause(from: later, until: later, now: now) }
        #expect(throws: ValidationError.self) {
            try Validation.pause(from: now.addingTimeInterval(-3600), until: now.addingTimeInterval(3600), now: now)
        }
        #expect(throws: ValidationError.self) {
            try Validation.pause(from: now.addingTimeInterval(400 * 86400), until: now.addingTimeInterval(401 * 86400), now: now)
        }
    }

    @Test func avatarsAreRecognisedByTheirBytes() throws {
        let png: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + Array(repeating: 0, count: 20)
        #expect(try Validation.avatar(png) == "image/png")
        #expect(try Validation.avatar([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 0xFF, 0xD9]) == "image/jpeg")
        #expect(throws: ValidationError.self) { try Validation.avatar(Array("GIF89a".utf8)) }
        #expect(throws: ValidationError.self) { try Validation.avatar(png + Array(repeating: 0, count: 1 << 20)) }
    }

    @Test func contactCodesAcceptLinksAndText() throws {
        let code = "0123456789abcdef0123456789abcdef"
        #expect(try Validation.contactCode("lifesignal://contact/\(code)") == code)
        #expect(try Validation.contactCode(code.uppercased()) == code)
        #expect(throws: ValidationError.self) { try Validation.contactCode("xyz") }
    }
}
