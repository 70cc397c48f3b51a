import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// Where a period starts and ends with pauses, which pause holds, and which new one is allowed.
@Suite("Pauses")
struct PauseRuleTests {
    static let base = ISODate.parse("2026-03-02T08:00:00Z")!  // a Monday, 09:00 in Paris
    static let hour: TimeInterval = 3600
    static let ada = UserID(UUID())

    static func at(_ hours: Double) -> Date { base.addingTimeInterval(hours * hour) }

    /// A pause from `from` to `until` hours after `base`, set at `setAt` (its start when nil:
    /// a pause started at once).
    static func pause(_ from: Double, _ until: Double, setAt: Double? = nil) -> Pause {
        Pause(id: PauseID(UUID()), from: at(from), until: at(until), setBy: ada, setByName: "Ada", setAt: at(setAt ?? from))
    }

    static func user(_ schedule: CheckInSchedule = .interval(seconds: 86400), checkIn: Double = 0, pauses: [Pause]) -> User {
        User(
            id: ada, phone: "+15555550100", schedule: schedule, lastCheckInAt: at(checkIn), pauses: pauses, createdAt: at(-100),
            contactCode: String(repeating: "a", count: 32))
    }

    @Test(
        "the deadline with pauses (interval of 24 h, checked in at 0 h)",
        arguments: [
            // No pause: 24 h.
            ([], 24.0),
            // Planned ahead, over the deadline: a whole day after it ends.
            ([pause(20, 68, setAt: 1)], 92),
            // Planned ahead, over and ending before the deadline: a day after its end.
            ([pause(2, 4, setAt: 1)], 28),
            // Planned to begin after the deadline: it does not excuse it.
            ([pause(25, 48, setAt: 1)], 24),
            // Started at once, even past the deadline ("pause now" while late): her word.
            ([pause(30, 40)], 64),
            // Two back to back over the deadline: a day after the second.
            ([pause(20, 40, setAt: 1), pause(40, 60, setAt: 1)], 84),
            // A second pause over the deadline the first one gave.
            ([pause(20, 30, setAt: 1), pause(50, 60, setAt: 1)], 84),
            // A far one that the deadline never reaches.
            ([pause(200, 300, setAt: 1)], 24),
        ] as [([Pause], Double)])
    func deadline(pauses: [Pause], expectedHours: Double) {
        #expect(Deadline.of(Self.user(pauses: pauses)) == Self.at(expectedHours))
    }

    @Test func aDailyDeadlineInsideAPauseNeverFalls() {
        // 09:30 in Paris each day; away from Tuesday 08:00 to Thursday 08:00 (Paris): Tuesday's
        // and Wednesday's deadlines fall inside; the next is Friday's (Thursday's window opened
        // before she came back).
        let daily = CheckInSchedule.daily(hour: 9, minute: 30, timeZone: "Europe/Paris")
        let user = Self.user(daily, checkIn: 0.5, pauses: [Self.pause(23, 71, setAt: 1)])
        #expect(Deadline.of(user) == ISODate.parse("2026-03-06T08:30:00Z"))
    }

    @Test func remindersInsideAPauseAreHeldAndNothingIsDueWhilePaused() {
        let user = Self.user(pauses: [Self.pause(20, 68, setAt: 1)])
        let plan = EscalationPlan.steps(for: user)
        #expect(plan.allSatisfy { $0.at >= Self.at(68) })
        // An SOS-free incident step that would fall inside a pause is looked at when it ends.
        let late = Self.user(pauses: [Self.pause(25, 48, setAt: 1)])
        let steps = EscalationPlan.steps(for: late)
        let incident = steps.count - 1
        #expect(EscalationPlan.nextActionAt(for: late, stepsDone: incident, now: Self.at(26)) == Self.at(48))
    }

    @Test func whichPauseHoldsAndUntilWhen() {
        let pauses = [Self.pause(10, 20), Self.pause(20, 30, setAt: 1), Self.pause(50, 60, setAt: 1)]
        #expect(PauseRule.pausedUntil(at: Self.at(5), pauses) == nil)
        // Back to back: paused until the end of the second.
        #expect(PauseRule.pausedUntil(at: Self.at(12), pauses) == Self.at(30))
        #expect(PauseRule.pausedUntil(at: Self.at(30), pauses) == nil)
        #expect(PauseRule.current(at: Self.at(55), pauses)?.from == Self.at(50))
        #expect(PauseRule.next(after: Self.at(12), pauses)?.from == Self.at(20))
    }

    @Test func aNewPauseMayNotOverlapNorPassTheLimit() {
        let held = [Self.pause(10, 20, setAt: 1)]
        #expect(PauseRule.refusal(adding: Self.at(20), until: Self.at(30), to: held, now: Self.at(0)) == nil)
        #expect(PauseRule.refusal(adding: Self.at(15), until: Self.at(30), to: held, now: Self.at(0)) == .overlaps(held[0]))
        // An ended one is no obstacle.
        #expect(PauseRule.refusal(adding: Self.at(15), until: Self.at(30), to: held, now: Self.at(21)) == nil)
        let twenty = (0..<20).map { Self.pause(Double($0) * 10 + 100, Double($0) * 10 + 105, setAt: 1) }
        #expect(PauseRule.refusal(adding: Self.at(0), until: Self.at(5), to: twenty, now: Self.at(0)) == .tooMany)
        // Ended ones are kept only while her period still starts from them.
        let kept = PauseRule.kept(
            [Self.pause(-10, -5), Self.pause(2, 4), Self.pause(50, 60, setAt: 1)], lastCheckIn: Self.at(0), now: Self.at(10))
        #expect(kept.map(\.from) == [Self.at(2), Self.at(50)])
    }
}
