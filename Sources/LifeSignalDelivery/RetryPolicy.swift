import Foundation

/// How often and how far apart a transient failure is retried on the same channel.
///
/// Exponential backoff with full jitter: after attempt `n` (1-based) the next try waits a
/// random time in `[0, min(cap, base · 2^(n-1)))`. Full jitter spreads a burst of failures
/// (a provider outage) instead of retrying them all in lockstep.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in total on one channel, the first included; the last transient failure fails it.
    public var maxAttempts: Int
    /// The ceiling of the first wait.
    public var base: Duration
    /// The largest ceiling any wait may have.
    public var cap: Duration

    public init(maxAttempts: Int = 5, base: Duration = .seconds(5), cap: Duration = .seconds(600)) {
        self.maxAttempts = max(1, maxAttempts)
        self.base = base
        self.cap = cap
    }

    /// Whether a transient failure of attempt number `attempt` (1-based) may be retried.
    public func allowsRetry(afterAttempt attempt: Int) -> Bool {
        attempt < maxAttempts
    }

    /// The upper bound of the wait after attempt `attempt` (1-based), in seconds.
    public func ceiling(afterAttempt attempt: Int) -> TimeInterval {
        let base = base.seconds, cap = cap.seconds
        // 2^62 would overflow long before; the cap is reached far earlier anyway.
        let exponent = Double(min(max(attempt - 1, 0), 62))
        return min(cap, base * pow(2, exponent))
    }

    /// The wait after attempt `attempt` given `unitRandom` in `[0, 1)` from the injected source.
    public func delay(afterAttempt attempt: Int, unitRandom: Double) -> TimeInterval {
        ceiling(afterAttempt: attempt) * min(max(unitRandom, 0), 1)
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
