import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

@Suite("Validation")
struct ValidationTests {
    @Test("names", arguments: [
        ("Ada", true), ("  Jean-Luc ", true), ("O'Brien", true), ("Zoë", true), ("李雷", true),
        ("A", false), ("", false), (String(repeating: "a", count: 51), false), ("R2D2", false), ("--", false),
        ("Bob!", false),
    ])
    func names(input: String, valid: Bool) {
        #expect(((try? Validation.name(input, field: "firstName")) != nil) == valid)
    }

    @Test("phone numbers normalise to E.164", arguments: [
        ("+44 7700 900123", "+447700900123"), ("+1 (415) 555-0123", "+14155550123"), ("+33.6.12.34.56.78", "+33612345678"),
    ])
    func phones(input: String, expected: String) throws {
        #expect(try Validation.phone(input) == expected)
    }

    @Test("bad phone numbers", arguments: ["07700 900123", "+0123456789", "+12", "+1234567890123456", "+44abc", ""])
    func badPhones(input: String) {
        #expect(throws: ValidationError.self) { try Validation.phone(input) }
    }

    @Test("schedules and reminders", arguments: [
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
        #expect(throws: ValidationError.self) { try Validation.pause(until: now, now: now) }
        #expect(throws: ValidationError.self) { try Validation.pause(until: now.addingTimeInterval(91 * 86400), now: now) }
        #expect(throws: Never.self) { try Validation.pause(until: now.addingTimeInterval(86400), now: now) }
    }

    @Test func avatarsAreRecognisedByTheirBytes() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + Array(repeating: 0, count: 20)
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
