import Foundation
import LifeSignalModels
import LifeSignalRules
import Testing

/// Calls at the provider's rate: whole-second slots, the spread the preview shows, and which
/// kind of send goes first when slots are short.
@Suite("Call pacing")
struct CallPacingTests {
    static let nine = ISO8601DateFormatter().date(from: "2026-12-01T08:00:00Z")!

    @Test(arguments: [
        // (calls due at the minute, calls per second, seconds until the last has gone out)
        (0, 1, 0.0), (1, 1, 1.0), (2, 1, 2.0), (10, 10, 1.0), (11, 10, 2.0),
        (1_000, 1, 1_000.0), (1_000, 4, 250.0), (10_000, 10, 1_000.0),
    ])
    func theSpreadIsTheEndOfTheLastCallsSlot(count: Int, rate: Int, seconds: Double) {
        #expect(CallPacing.spread(dueAtSameMinute: count, callsPerSecond: rate) == seconds)
    }

    @Test func theSlotOfACallIsItsPlaceOverTheRateInWholeSeconds() {
        let slots = (0..<25).map { CallPacing.slot(index: $0, callsPerSecond: 10) }
        #expect(slots == Array(repeating: 0, count: 10) + Array(repeating: 1, count: 10) + Array(repeating: 2, count: 5))
        // A rate below one is taken as one: never no slots at all.
        #expect(CallPacing.slot(index: 3, callsPerSecond: 0) == 3)
    }

    @Test(arguments: [
        // (people at the minute, calls per second, minutes the preview says; nil: nothing to say)
        (1, 1, nil as Int?), (60, 1, nil), (61, 1, 2), (1_000, 1, 17), (1_000, 4, 5), (1_000, 10, 2), (500, 10, nil),
    ])
    func thePreviewRoundsUpToWholeMinutesAndSaysNothingWithinTheMinute(count: Int, rate: Int, minutes: Int?) {
        #expect(CallPacing.previewMinutes(dueAtSameMinute: count, callsPerSecond: rate) == minutes)
    }

    /// `second.take(at:)` (a mutating call cannot sit inside `#expect`).
    func take(_ second: inout CallPacing.Second, _ at: Date) -> Bool { second.take(at: at) }

    @Test func eachSecondHasItsSlotsAndALateSecondLosesNothingOfTheNext() {
        var second = CallPacing.Second(callsPerSecond: 3)
        #expect(second.free(at: Self.nine) == 3)
        #expect((0..<4).map { _ in second.take(at: Self.nine.addingTimeInterval(0.2)) } == [true, true, true, false])
        #expect(second.free(at: Self.nine.addingTimeInterval(0.999)) == 0)
        // The next second has all three, however late in it the worker comes.
        #expect(second.free(at: Self.nine.addingTimeInterval(1.9)) == 3)
        #expect(take(&second, Self.nine.addingTimeInterval(1.9)))
        #expect(second.free(at: Self.nine.addingTimeInterval(1.95)) == 2)
        #expect(CallPacing.Second.nextSecond(after: Self.nine.addingTimeInterval(1.9)) == Self.nine.addingTimeInterval(2))
    }

    @Test func aClockThatGoesBackGetsNoSecondBurst() {
        var second = CallPacing.Second(callsPerSecond: 2)
        #expect(take(&second, Self.nine.addingTimeInterval(5)))
        #expect(take(&second, Self.nine.addingTimeInterval(5)))
        // Back to an earlier second: still counted against the later one, which is full.
        #expect(!take(&second, Self.nine.addingTimeInterval(4)))
        #expect(take(&second, Self.nine.addingTimeInterval(6)))
    }

    @Test func alertsGoFirstThenDailyCallsAndRemindersThenTheRest() {
        #expect(CallPacing.rank(.incidentOpened) == 0)
        #expect(CallPacing.rank(.manualAlert) == 0)
        #expect(CallPacing.rank(.alertSent) == 0)
        #expect(CallPacing.rank(.dailyCallFailed) == 0)
        #expect(CallPacing.rank(.dailyCall) == 1)
        #expect(CallPacing.rank(.reminder) == 1)
        #expect(CallPacing.rank(.drill) == 2)
        #expect(CallPacing.rank(.channelCode) == 2)
        #expect(CallPacing.rank(.callRequest) == 2)
        // Every alert kind ranks first, whatever kinds are added later.
        #expect(LifeSignalModels.Notification.Kind.allCases.filter { $0.category == .alerts }.allSatisfy { CallPacing.rank($0) == 0 })
    }

    @Test func twilioDefaultIsOneCallPerSecond() {
        #expect(CallPacing.twilioDefaultCallsPerSecond == 1)
    }
}
