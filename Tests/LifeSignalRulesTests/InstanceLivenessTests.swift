import Foundation
import LifeSignalRules
import Testing

@Suite("Instance liveness")
struct InstanceLivenessTests {
    let rule = InstanceLiveness.default
    let t0 = Date(timeIntervalSince1970: 1_760_000_000)

    @Test(arguments: [(0.0, false), (10, false), (30, false), (30.001, true), (45, true)])
    func silentAfterThirtySeconds(since: Double, silent: Bool) {
        #expect(rule.isSilent(lastSeen: t0, now: t0.addingTimeInterval(since)) == silent)
    }

    @Test(arguments: [(nil as Double?, 0.0, false), (0, 0, false), (0, 29, false), (0, 30, true), (10, 45, true)])
    func judgesOnlyAfterAWholeWindowOfItsOwnHeartbeats(healthySince: Double?, now: Double, judges: Bool) {
        #expect(rule.mayJudge(healthySince: healthySince.map { t0.addingTimeInterval($0) }, now: t0.addingTimeInterval(now)) == judges)
    }

    @Test(arguments: [(nil as Double?, 0.0, true), (0, 9.9, false), (0, 10, true)])
    func heartbeatEveryTenSeconds(lastBeat: Double?, now: Double, due: Bool) {
        #expect(rule.heartbeatDue(lastBeat: lastBeat.map { t0.addingTimeInterval($0) }, now: t0.addingTimeInterval(now)) == due)
    }

    @Test func cutOffs() {
        #expect(rule.silentBefore(t0) == t0.addingTimeInterval(-30))
        #expect(rule.forgottenBefore(t0) == t0.addingTimeInterval(-900))
        // Declared dead 20–32 s after the death: the last heartbeat is at most 10 s before it,
        // and a look comes every 2 s.
        #expect(rule.silentAfterSeconds + rule.watchSeconds <= 32)
    }
}
