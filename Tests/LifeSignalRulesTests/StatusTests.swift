import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

@Suite("Status and escalation plan")
struct StatusTests {
    let checkIn = ISODate.parse("2026-03-01T12:00:00Z")!

    func user(reminders: ReminderChoice = .thirtyMinutes, grace: Int = 10, paused: Date? = nil) -> User {
        User(
            id: UserID(UUID()), phone: "+15555550100", schedule: .interval(seconds: 8 * 3600), reminders: reminders,
            graceMinutes: grace, lastCheckInAt: checkIn,
            pauses: paused.map { [Pause.startingNow(checkIn, until: $0, setBy: UserID(UUID()), setByName: "")] } ?? [], createdAt: checkIn,
            contactCode: String(repeating: "b", count: 32))
    }

    @Test(
        "state from time, pause and incidents",
        arguments: [
            (3600.0, false, false, CheckInStatus.State.ok),
            (8 * 3600.0, false, false, .nonResponsive),
            (9 * 3600.0, true, false, .paused),
            (3600.0, false, true, .alert),
            (9 * 3600.0, true, true, .alert),
        ])
    func state(after seconds: Double, paused: Bool, alert: Bool, expected: CheckInStatus.State) {
        let now = checkIn.addingTimeInterval(seconds)
        let u = user(paused: paused ? now.addingTimeInterval(3600) : nil)
        let incidents = alert ? [Incident(id: IncidentID(UUID()), userID: u.id, kind: .manualAlert, openedAt: now, dueAt: now)] : []
        let status = StatusRule.status(of: u, openIncidents: incidents, now: now)
        #expect(status.state == expected)
        #expect(status.openIncident?.kind == (alert ? .manualAlert : nil))
    }

    @Test func secondsLeftCountsDownAndGoesNegative() {
        let u = user()
        #expect(StatusRule.status(of: u, openIncidents: [], now: checkIn.addingTimeInterval(3600)).secondsLeft == 7 * 3600)
        #expect(StatusRule.status(of: u, openIncidents: [], now: checkIn.addingTimeInterval(9 * 3600)).secondsLeft == -3600)
    }

    @Test(
        "urgency colour thresholds",
        arguments: [
            (10_000, 28_800, StatusRule.Urgency.plenty), (7200, 28_800, .close), (0, 28_800, .overdue),
            (-5, 28_800, .overdue), (800, 3600, .close), (1000, 3600, .plenty), (1000, 86_400, .close), (7201, 86_400, .plenty),
        ])
    func urgency(left: Int, period: Int, expected: StatusRule.Urgency) {
        #expect(StatusRule.urgency(secondsLeft: left, periodSeconds: period) == expected)
    }

    @Test func planHasRemindersLastCallThenIncidentAfterGrace() {
        let steps = EscalationPlan.steps(for: user(reminders: .both, grace: 10))
        let deadline = checkIn.addingTimeInterval(8 * 3600)
        #expect(
            steps == [
                EscalationStep(kind: .reminder(leadSeconds: 7200), at: deadline.addingTimeInterval(-7200)),
                EscalationStep(kind: .reminder(leadSeconds: 1800), at: deadline.addingTimeInterval(-1800)),
                EscalationStep(kind: .lastCall, at: deadline),
                EscalationStep(kind: .openIncident, at: deadline.addingTimeInterval(600)),
            ])
    }

    @Test func zeroGraceOpensTheIncidentAtTheDeadlineAndNoReminders() {
        let steps = EscalationPlan.steps(for: user(reminders: .none, grace: 0))
        #expect(steps.map(\.kind) == [.lastCall, .openIncident])
        #expect(steps[0].at == steps[1].at)
    }

    @Test func nextActionFollowsStepsDone() {
        let u = user()
        let deadline = checkIn.addingTimeInterval(8 * 3600)
        #expect(EscalationPlan.nextActionAt(for: u, stepsDone: 0, now: checkIn) == deadline.addingTimeInterval(-1800))
        #expect(EscalationPlan.nextActionAt(for: u, stepsDone: 2, now: checkIn) == deadline.addingTimeInterval(600))
        #expect(EscalationPlan.nextActionAt(for: u, stepsDone: 3, now: checkIn) == nil)
    }

    @Test func repeatsStopAtTheLimitForMissedCheckInsButAlertsGoOn() {
        let policy = EscalationPolicy.default
        let t = checkIn
        #expect(policy.nextNotification(kind: .missedCheckIn, count: 1, lastAt: t) == t.addingTimeInterval(900))
        #expect(policy.nextNotification(kind: .missedCheckIn, count: 8, lastAt: t) == nil)
        #expect(policy.nextNotification(kind: .manualAlert, count: 8, lastAt: t) == t.addingTimeInterval(900))
    }
}
