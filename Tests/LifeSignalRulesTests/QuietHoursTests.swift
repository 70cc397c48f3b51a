import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// Quiet hours hold only her own early reminders: moved to their end while that is before the
/// deadline, else left out; the last call and the alert never move.
@Suite("Quiet hours")
struct QuietHoursTests {
    static func at(_ text: String) -> Date { ISODate.parse(text)! }
    /// 07:30 in Vienna (CET) on Monday 12 January 2026.
    static let deadline = at("2026-01-12T06:30:00Z")
    static let night = QuietHours(fromMinute: 22 * 60, toMinute: 7 * 60)

    func plan(_ reminders: ReminderChoice, quiet: QuietHours) -> [EscalationStep] {
        let plan = EscalationPlan.steps(
            deadline: Self.deadline, graceMinutes: 10, reminders: reminders, periodStart: Self.at("2026-01-11T07:00:00Z"))
        return EscalationPlan.holding(plan, for: quiet, timeZone: "Europe/Vienna")
    }

    @Test func aReminderInsideMovesToTheirEnd() {
        // 2 hours before 07:30 is 05:30, inside 22:00–07:00: it comes at 07:00.
        #expect(
            plan(.twoHours, quiet: Self.night) == [
                EscalationStep(kind: .reminder(leadSeconds: 7200), at: Self.at("2026-01-12T06:00:00Z")),
                EscalationStep(kind: .lastCall, at: Self.deadline),
                EscalationStep(kind: .openIncident, at: Self.at("2026-01-12T06:40:00Z")),
            ])
    }

    @Test func aMovedReminderMeetingTheNextOneIsLeftOut() {
        // Both: 05:30 would move onto 07:00, where the 30-minute one already is.
        #expect(
            plan(.both, quiet: Self.night) == [
                EscalationStep(kind: .reminder(leadSeconds: 1800), at: Self.at("2026-01-12T06:00:00Z")),
                EscalationStep(kind: .lastCall, at: Self.deadline),
                EscalationStep(kind: .openIncident, at: Self.at("2026-01-12T06:40:00Z")),
            ])
    }

    @Test func tooLateIsLeftOutAndTheLastCallAndAlertNeverMove() {
        // Until 09:00: no reminder can come before 07:30; the last call and the alert at 07:40
        // fall inside quiet hours and stay where they are.
        #expect(
            plan(.both, quiet: QuietHours(fromMinute: 22 * 60, toMinute: 9 * 60)) == [
                EscalationStep(kind: .lastCall, at: Self.deadline),
                EscalationStep(kind: .openIncident, at: Self.at("2026-01-12T06:40:00Z")),
            ])
    }

    @Test func outsideQuietHoursNothingChanges() {
        let plain = EscalationPlan.steps(
            deadline: Self.deadline, graceMinutes: 10, reminders: .both, periodStart: Self.at("2026-01-11T07:00:00Z"))
        #expect(plan(.both, quiet: QuietHours(fromMinute: 12 * 60, toMinute: 13 * 60)) == plain)
    }

    @Test func quietHoursAcrossMidnightAndWithin() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Vienna")!
        #expect(QuietRule.contains(Self.at("2026-01-11T21:30:00Z"), Self.night, calendar: calendar))  // 22:30
        #expect(QuietRule.contains(Self.at("2026-01-12T05:59:00Z"), Self.night, calendar: calendar))  // 06:59
        #expect(!QuietRule.contains(Self.at("2026-01-12T06:00:00Z"), Self.night, calendar: calendar))  // 07:00
        let lunch = QuietHours(fromMinute: 12 * 60, toMinute: 13 * 60)
        #expect(QuietRule.contains(Self.at("2026-01-12T11:30:00Z"), lunch, calendar: calendar))  // 12:30
        #expect(!QuietRule.contains(Self.at("2026-01-12T10:30:00Z"), lunch, calendar: calendar))  // 11:30
    }

    @Test func theAPIShape() throws {
        let set = try JSONDecoder().decode(ProfileChanges.self, from: Data(#"{"quietHours":{"from":"22:00","to":"07:00"}}"#.utf8))
        #expect(set.quietHours == Self.night && !set.clearsQuietHours)
        let off = try JSONDecoder().decode(ProfileChanges.self, from: Data(#"{"quietHours":null}"#.utf8))
        #expect(off.quietHours == nil && off.clearsQuietHours)
        let absent = try JSONDecoder().decode(ProfileChanges.self, from: Data(#"{"graceMinutes":5}"#.utf8))
        #expect(absent.quietHours == nil && !absent.clearsQuietHours && absent.graceMinutes == 5)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ProfileChanges.self, from: Data(#"{"quietHours":{"from":"22","to":"07:00"}}"#.utf8))
        }
        // Sent back as it came.
        let again = try JSONDecoder().decode(ProfileChanges.self, from: try JSONEncoder().encode(off))
        #expect(again == off)
    }
}
