import LifeSignalCore
import Testing

/// What a background pass reports is what the operator reads in the log and, for the engine, what
/// `runUntilIdle` waits on: a counter added to a pass must reach both.
@Suite("Engine and retention passes")
struct BackgroundPassTests {
    /// A pass with each counter at a different power of two, so a sum names the counters in it.
    static func distinct() -> EnginePass {
        var pass = EnginePass()
        let counters: [WritableKeyPath<EnginePass, Int>] = [
            \.reminders, \.calls, \.consentCalls, \.lastCalls, \.incidentsOpened, \.repeats, \.claimsExpired,
            \.steps, \.exhausted, \.late, \.planNotices,
        ]
        #expect(counters.count == Mirror(reflecting: pass).children.count, "a counter is missing from this list")
        for (index, counter) in counters.enumerated() { pass[keyPath: counter] = 1 << index }
        return pass
    }

    @Test func theLogLineNamesEveryCounterOnce() {
        let pass = Self.distinct()
        #expect(pass.counts.count == Mirror(reflecting: pass).children.count)
        #expect(Set(pass.counts.map(\.key)).count == pass.counts.count)
        let values = Mirror(reflecting: pass).children.compactMap { $0.value as? Int }
        #expect(Set(pass.counts.map(\.value)) == Set(values))
    }

    @Test func theTotalIsEveryActionButLateness() {
        let pass = Self.distinct()
        #expect(pass.total == pass.counts.map(\.value).reduce(0, +) - pass.late)
    }

    @Test func theRetentionLogLineNamesEveryCountAndTheTotalIsRows() {
        var pass = RetentionPass()
        let counters: [WritableKeyPath<RetentionPass, Int>] = [
            \.notifications, \.deliveries, \.codes, \.rateLimits, \.planDetails, \.locations, \.batches,
        ]
        #expect(counters.count == Mirror(reflecting: pass).children.count, "a counter is missing from this list")
        for (index, counter) in counters.enumerated() { pass[keyPath: counter] = 1 << index }
        #expect(Set(pass.counts.map(\.key)).count == counters.count)
        #expect(Set(pass.counts.map(\.value)) == Set(counters.map { pass[keyPath: $0] }))
        #expect(pass.total == pass.counts.map(\.value).reduce(0, +) - pass.batches)
    }
}
