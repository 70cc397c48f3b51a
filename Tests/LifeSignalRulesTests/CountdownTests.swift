import LifeSignalRules
import Testing

@Suite("Countdown")
struct CountdownTests {
    @Test(arguments: [
        (0, 0, 0, 0, 0, false),
        (59, 0, 0, 0, 59, false),
        (60, 0, 0, 1, 0, false),
        (3_661, 0, 1, 1, 1, false),
        (86_399, 0, 23, 59, 59, false),
        (86_400, 1, 0, 0, 0, false),
        (2 * 86_400 + 5 * 3600 + 7, 2, 5, 0, 7, false),
        (-1, 0, 0, 0, 0, true),
        (-90_000, 0, 0, 0, 0, true),
    ])
    func splitsSecondsLeft(left: Int, days: Int, hours: Int, minutes: Int, seconds: Int, overdue: Bool) {
        let countdown = Countdown(secondsLeft: left)
        #expect([countdown.days, countdown.hours, countdown.minutes, countdown.seconds] == [days, hours, minutes, seconds])
        #expect(countdown.isOverdue == overdue)
    }

    @Test func unitsAgreeWithTheirNumber() {
        #expect(Countdown(secondsLeft: 86_400 + 3600 + 60 + 1).parts.map(\.unit) == ["Day", "Hour", "Minute", "Second"])
        #expect(Countdown(secondsLeft: 2 * 86_400 + 2 * 3600 + 2 * 60 + 2).parts.map(\.unit) == ["Days", "Hours", "Minutes", "Seconds"])
        #expect(Countdown(secondsLeft: 0).parts.map(\.unit) == ["Days", "Hours", "Minutes", "Seconds"])
    }
}
