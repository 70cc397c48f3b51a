import Foundation
import LifeSignalModels

/// What happens to a delivery next: the one owner of that decision, asked by the outbox
/// worker (an attempt failed), by the outbox store (a channel is done with it) and by a
/// provider's callback (a call went unanswered).
public enum DeliveryLifecycle {
    /// How many times an alert call is placed before the next channel is tried.
    public static let alertCallAttempts = 3

    /// How long after an unanswered alert call it is placed again.
    public static let alertCallRetryDelay: TimeInterval = 120

    /// Why an attempt did not go out.
    public enum AttemptFailure: Hashable, Sendable {
        /// It may go out later on the same channel (a timeout, a 5xx, a rate limit).
        case transient(reason: String)
        /// It never will on this channel (a bad address, a refusal).
        case permanent(reason: String)
    }

    /// After a failed attempt on one channel.
    public enum AfterAttempt: Hashable, Sendable {
        /// Tried again on the same channel at `at`.
        case retry(at: Date, reason: String)
        /// This channel is done with it (the next step is ``afterChannelFailed(_:)``).
        case failed(reason: String)
    }

    /// After attempt number `attempt` (1-based) failed: a transient failure is retried until
    /// `maxAttempts`, after `backoff(attempt)` seconds (asked only for a retry); the last one,
    /// and any permanent failure, fail the channel.
    public static func afterAttempt(
        _ failure: AttemptFailure, attempt: Int, maxAttempts: Int, now: Date, backoff: (Int) -> TimeInterval
    ) -> AfterAttempt {
        switch failure {
        case .permanent(let reason):
            return .failed(reason: reason)
        case .transient(let reason):
            guard attempt < maxAttempts else { return .failed(reason: "\(reason) Gave up after \(attempt) attempts.") }
            return .retry(at: now.addingTimeInterval(backoff(attempt)), reason: reason)
        }
    }

    /// After a channel is done with a delivery (failed for good).
    public enum AfterChannelFailed: Hashable, Sendable {
        /// The recipient's next target is queued, carrying what is left after it.
        case fallBack(to: DeliveryTarget, then: DeliveryFanOut)
        /// No target left for this delivery: when every delivery of an alert failed, people
        /// are told its recipient could not be reached.
        case exhausted
    }

    /// What a failed delivery leads to, by how it was fanned out.
    public static func afterChannelFailed(_ fanOut: DeliveryFanOut) -> AfterChannelFailed {
        guard case .fallback(let next) = fanOut, let first = next.first else { return .exhausted }
        return .fallBack(to: first, then: .fallback(next: Array(next.dropFirst())))
    }

    /// After a provider reports a failure of a message it had accepted.
    public enum AfterProviderFailure: Hashable, Sendable {
        /// The call is placed again at `at`, on the same delivery.
        case callAgain(at: Date)
        /// The channel failed: see ``afterChannelFailed(_:)``.
        case failed
        /// Recorded, and nothing more: the alert it carried ended, or someone is on it.
        case settled
    }

    /// A failure reported by the provider for a delivery on `channel` after `attempts` attempts.
    /// An alert call nobody answered (busy, no answer) is placed again, up to
    /// ``alertCallAttempts`` calls ``alertCallRetryDelay`` apart; any other failure fails the
    /// channel — unless the alert is no longer needed (`stillNeeded`: open, nobody on it).
    public static func afterProviderFailure(
        channel: ChannelKind, isAlert: Bool, stillNeeded: Bool, unanswered: Bool, attempts: Int, now: Date
    ) -> AfterProviderFailure {
        guard stillNeeded else { return .settled }
        if unanswered, channel == .voice, isAlert, attempts < alertCallAttempts {
            return .callAgain(at: now.addingTimeInterval(alertCallRetryDelay))
        }
        return .failed
    }
}
