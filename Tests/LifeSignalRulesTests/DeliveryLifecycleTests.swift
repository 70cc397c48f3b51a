import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

/// What happens to a delivery next, whoever asks.
@Suite("Delivery lifecycle")
struct DeliveryLifecycleTests {
    static let now = ISODate.parse("2026-03-01T12:00:00Z")!

    @Test(
        "after a failed attempt",
        arguments: [
            (
                DeliveryLifecycle.AttemptFailure.transient(reason: "timeout"), 1,
                DeliveryLifecycle.AfterAttempt.retry(at: now.addingTimeInterval(10), reason: "timeout")
            ),
            (.transient(reason: "timeout"), 4, .retry(at: now.addingTimeInterval(40), reason: "timeout")),
            (.transient(reason: "timeout"), 5, .failed(reason: "timeout Gave up after 5 attempts.")),
            (.permanent(reason: "bad number"), 1, .failed(reason: "bad number")),
        ])
    func afterAttempt(failure: DeliveryLifecycle.AttemptFailure, attempt: Int, expected: DeliveryLifecycle.AfterAttempt) {
        var asked: [Int] = []
        let next = DeliveryLifecycle.afterAttempt(failure, attempt: attempt, maxAttempts: 5, now: Self.now) {
            asked.append($0)
            return Double($0) * 10
        }
        #expect(next == expected)
        // The backoff (which draws a random number) is asked only for a retry.
        if case .retry = expected { #expect(asked == [attempt]) } else { #expect(asked.isEmpty) }
    }

    @Test(
        "after a channel failed",
        arguments: [
            (DeliveryFanOut.everyChannel, DeliveryLifecycle.AfterChannelFailed.exhausted),
            (.fallback(next: []), .exhausted),
            (
                .fallback(next: [DeliveryTarget(channel: .sms, address: "+1"), DeliveryTarget(channel: .voice, address: "+1")]),
                .fallBack(
                    to: DeliveryTarget(channel: .sms, address: "+1"),
                    then: .fallback(next: [DeliveryTarget(channel: .voice, address: "+1")]))
            ),
            (
                .fallback(next: [DeliveryTarget(channel: .voice, address: "+1")]),
                .fallBack(to: DeliveryTarget(channel: .voice, address: "+1"), then: .fallback(next: []))
            ),
        ])
    func afterChannelFailed(fanOut: DeliveryFanOut, expected: DeliveryLifecycle.AfterChannelFailed) {
        #expect(DeliveryLifecycle.afterChannelFailed(fanOut) == expected)
    }

    /// (channel, alert, still needed, unanswered, attempts so far) → next
    @Test(
        "after the provider reports a failure",
        arguments: [
            // An unanswered alert call is placed again, three calls in all, two minutes apart.
            (ChannelKind.voice, true, true, true, 1, DeliveryLifecycle.AfterProviderFailure.callAgain(at: now.addingTimeInterval(120))),
            (.voice, true, true, true, 2, .callAgain(at: now.addingTimeInterval(120))),
            (.voice, true, true, true, 3, .failed),
            // A call that failed otherwise (a wrong number) goes to the next channel at once.
            (.voice, true, true, false, 1, .failed),
            // Only alert calls are placed again.
            (.voice, false, true, true, 1, .failed),
            (.sms, true, true, true, 1, .failed),
            // An alert that ended, or that someone is on, needs nothing more.
            (.voice, true, false, true, 1, .settled),
            (.sms, true, false, false, 1, .settled),
        ])
    func afterProviderFailure(
        channel: ChannelKind, alert: Bool, needed: Bool, unanswered: Bool, attempts: Int,
        expected: DeliveryLifecycle.AfterProviderFailure
    ) {
        #expect(
            DeliveryLifecycle.afterProviderFailure(
                channel: channel, isAlert: alert, stillNeeded: needed, unanswered: unanswered, attempts: attempts, now: Self.now)
                == expected)
    }
}
