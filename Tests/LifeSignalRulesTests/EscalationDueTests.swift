import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// Which steps of a plan the engine takes at a given time, and which it passes over.
@Suite("Escalation: due steps")
struct EscalationDueTests {
    static let created = ISODate.parse("2026-03-01T00:00:00Z")!

    /// Checked in at 00:00 on an 8-hour interval: reminders at 06:00 and 07:30, last call at
    /// 08:00, the incident after 10 minutes of grace at 08:10.
    static let user = User(
        id: UserID(UUID(uuidString: "0195B3C4-1111-7000-8000-000000000001")!), phone: "+15555550100",
        schedule: .interval(seconds: 8 * 3600), reminders: .both, graceMinutes: 10, lastCheckInAt: created,
        createdAt: created, contactCode: String(repeating: "a", count: 32))
    static let deadline = ISODate.parse("2026-03-01T08:00:00Z")!

    enum Taken: Equatable, CustomStringConvertible {
        case reminder(Int), call(Int), lastCall, openIncident

        var description: String {
            switch self {
            case .reminder(let lead): "reminder(\(lead))"
            case .call(let attempt): "call(\(attempt))"
            case .lastCall: "lastCall"
            case .openIncident: "openIncident"
            }
        }
    }

    /// (steps done before, now, steps taken, late ones, passed over, steps done after)
    @Test(
        "what is due at each time",
        arguments: [
            // Nothing yet.
            (0, "2026-03-01T05:59:59Z", [Taken](), [Taken](), [Taken](), 0),
            // On time: the 2-hour reminder alone.
            (0, "2026-03-01T06:00:00Z", [.reminder(7200)], [], [], 1),
            // 59 s after: still on time; 61 s after: late.
            (0, "2026-03-01T06:00:59Z", [.reminder(7200)], [], [], 1),
            (0, "2026-03-01T06:01:01Z", [.reminder(7200)], [.reminder(7200)], [], 1),
            // The first reminder done, the second due.
            (1, "2026-03-01T07:30:00Z", [.reminder(1800)], [], [], 2),
            // Both reminders' times passed with no engine: the first is passed over, the second sent late.
            (0, "2026-03-01T07:40:00Z", [.reminder(1800)], [.reminder(1800)], [.reminder(7200)], 2),
            // At the deadline: the last call; the reminder before it is passed over.
            (1, "2026-03-01T08:00:00Z", [.lastCall], [], [.reminder(1800)], 3),
            // An engine down all morning: every reminder passed over, the last call late, then the incident.
            (0, "2026-03-01T09:00:00Z", [.lastCall, .openIncident], [.lastCall, .openIncident], [.reminder(7200), .reminder(1800)], 4),
            // Everything done: nothing is due however late.
            (4, "2026-03-02T09:00:00Z", [], [], [], 4),
        ])
    func due(done: Int, at: String, taken: [Taken], late: [Taken], passedOver: [Taken], doneAfter: Int) throws {
        let now = try #require(ISODate.parse(at))
        let due = EscalationPlan.due(
            state: EscalationProgress(user: Self.user, deadline: Self.deadline, stepsDone: done), now: now, lateAfter: 60)
        #expect(due.filter { !$0.isPassedOver }.map(\.taken) == taken)
        #expect(due.filter { $0.isLate && !$0.isPassedOver }.map(\.taken) == late)
        #expect(due.filter(\.isPassedOver).map(\.taken) == passedOver)
        #expect(EscalationPlan.stepsDone(after: due, from: done) == doneAfter)
    }

    @Test func eachStepCarriesTheKeyOfItsNotification() throws {
        let now = try #require(ISODate.parse("2026-03-01T08:10:00Z"))
        let due = EscalationPlan.due(
            state: EscalationProgress(user: Self.user, deadline: Self.deadline, stepsDone: 1), now: now, lateAfter: 60)
        #expect(
            due.map(\.key) == [
                .reminder(user: Self.user.id, deadline: Self.deadline, leadSeconds: 1800),
                .lastCall(user: Self.user.id, deadline: Self.deadline), nil,
            ])
        #expect(due.map(\.index) == [1, 2, 3])
    }

    /// A ladder of any length: steps at their waits, in order, each taken once.
    @Test func anyListOfStepsInTimeOrder() throws {
        let start = try #require(ISODate.parse("2026-03-01T10:00:00Z"))
        let ladder = (0..<4).map { EscalationStep(kind: .openIncident, at: start.addingTimeInterval(Double($0) * 900)) }
        let at1500 = EscalationPlan.due(in: ladder, after: 0, now: start.addingTimeInterval(1500), lateAfter: 60)
        #expect(at1500.map(\.index) == [0, 1])
        #expect(at1500.map(\.isLate) == [true, true])
        #expect(at1500.allSatisfy { !$0.isPassedOver })
        let next = EscalationPlan.due(in: ladder, after: 2, now: start.addingTimeInterval(1800), lateAfter: 60)
        #expect(next.map(\.index) == [2])
        #expect(next.map(\.isLate) == [false])
        #expect(EscalationPlan.due(in: ladder, after: 4, now: start.addingTimeInterval(86400), lateAfter: 60).isEmpty)
        #expect(EscalationPlan.due(in: [], after: 0, now: start, lateAfter: 60).isEmpty)
    }
}

extension DueStep {
    fileprivate var taken: EscalationDueTests.Taken {
        switch step.kind {
        case .reminder(let lead): .reminder(lead)
        case .call(let attempt): .call(attempt)
        case .lastCall: .lastCall
        case .openIncident: .openIncident
        }
    }
}
