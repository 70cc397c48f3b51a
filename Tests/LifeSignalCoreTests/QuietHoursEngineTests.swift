import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Quiet hours in the engine, on both databases, with the test clock: her early reminder waits
/// for their end; an alert to her responders never waits.
@Suite("Quiet hours in the engine")
struct QuietHoursEngineTests {
    typealias Backend = TestBackend
    static func at(_ text: String) -> Date { ISODate.parse(text)! }

    @Test(arguments: Backend.all)
    func aReminderMovesToTheEndOfQuietHoursAndAnAlertNeverWaits(_ backend: Backend) async throws {
        let (world, drop) = try await TestWorld.on(backend)
        defer { Task { await drop() } }
        var ada = try await world.signUp("Ada", phone: "+436601234510")
        let bob = try await world.signUp("Bob", phone: "+436601234511")
        try await world.link(responder: bob, dependent: ada)
        // By 07:30 every day in Vienna, a reminder 2 hours before; quiet from 22:00 to 07:00.
        world.clock.set(Self.at("2026-01-11T07:00:00Z"))
        ada.user = try await world.profiles.updateProfile(
            ada,
            ProfileChanges(
                schedule: .daily(hour: 7, minute: 30, timeZone: "Europe/Vienna"), reminders: .twoHours, graceMinutes: 10,
                timeZone: "Europe/Vienna", quietHours: QuietHours(fromMinute: 22 * 60, toMinute: 7 * 60)))
        #expect(try await world.profiles.profile(ada).quietHours == QuietHours(fromMinute: 22 * 60, toMinute: 7 * 60))
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        #expect(try await world.checkIns.status(ada).deadline == Self.at("2026-01-12T06:30:00Z"))
        let engine = EscalationEngine(core: world.core, instance: "quiet")
        func reminders() async throws -> [LifeSignalModels.Notification] {
            try await world.notifications(ada).filter { $0.type == .reminder }
        }
        func alerts() async throws -> Int {
            try await world.notifications(bob).filter { $0.type == .incidentOpened && $0.subjectUserID == ada.user.id }.count
        }

        // 05:31, past the reminder's planned 05:30: quiet hours hold it.
        world.clock.set(Self.at("2026-01-12T04:31:00Z"))
        _ = try await engine.runPass()
        #expect(try await reminders().isEmpty)
        // 07:00, their end: it comes, saying the half hour really left.
        world.clock.set(Self.at("2026-01-12T06:00:00Z"))
        _ = try await engine.runPass()
        let reminder = try #require(try await reminders().first)
        #expect(reminder.body.contains("30 minutes"), "\(reminder.body)")
        #expect(try await alerts() == 0)

        // Quiet until 09:00 now: the next morning's reminder cannot come before 07:30 and is left
        // out, and the alert at 07:40 — inside quiet hours — goes to Bob on time.
        world.clock.set(Self.at("2026-01-12T06:10:00Z"))
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        ada.user = try await world.profiles.updateProfile(
            ada, ProfileChanges(quietHours: QuietHours(fromMinute: 22 * 60, toMinute: 9 * 60)))
        for time in ["2026-01-13T04:31:00Z", "2026-01-13T06:00:00Z", "2026-01-13T06:31:00Z"] {
            world.clock.set(Self.at(time))
            _ = try await engine.runPass()
        }
        #expect(try await reminders().count == 1)
        #expect(try await alerts() == 0, "inside the grace period")
        world.clock.set(Self.at("2026-01-13T06:41:00Z"))
        _ = try await engine.runPass()
        #expect(try await alerts() == 1)
    }

    @Test(arguments: Backend.all)
    func badQuietHoursAreRefusedAndOffTurnsThemOff(_ backend: Backend) async throws {
        let (world, drop) = try await TestWorld.on(backend)
        defer { Task { await drop() } }
        var ada = try await world.signUp("Ada", phone: "+436601234512")
        let quiet = QuietHours(fromMinute: 22 * 60, toMinute: 7 * 60)
        ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(quietHours: quiet))
        await #expect {
            _ = try await world.profiles.updateProfile(ada, ProfileChanges(quietHours: QuietHours(fromMinute: 420, toMinute: 420)))
        } throws: { error in
            (error as? ServiceError)?.code == .invalidQuietHours
        }
        #expect(try await world.profiles.profile(ada).quietHours == quiet)
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(clearsQuietHours: true))
        #expect(try await world.profiles.profile(ada).quietHours == nil)
    }
}
