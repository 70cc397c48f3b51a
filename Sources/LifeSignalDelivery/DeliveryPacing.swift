import Foundation
import LifeSignalModels
import LifeSignalRules
import Synchronization

/// The providers' rates a worker keeps to: at most so many sends per second on a channel
/// (voice: the provider's calls per second), slots shared by all of the worker's rounds.
///
/// A paced channel's deliveries are claimed only as its slots allow, alerts first, then daily
/// calls, then the rest (see ``OutboxStore/claimDue(now:limit:owner:leaseUntil:paced:)``);
/// one that is claimed or handed over while no slot is free waits in the round, and is given
/// back to the outbox when the round ends, for the next claim to take in that order.
public final class DeliveryPacing: Sendable {
    /// Sends per second on each paced channel.
    public let rates: [ChannelKind: Int]
    private let seconds: Mutex<[ChannelKind: CallPacing.Second]>

    public init(_ rates: [ChannelKind: Int]) {
        self.rates = rates.filter { $0.value > 0 }
        self.seconds = Mutex(self.rates.mapValues { CallPacing.Second(callsPerSecond: $0) })
    }

    /// Calls at `callsPerSecond` (the provider's CPS); nothing else paced.
    public convenience init(callsPerSecond: Int) { self.init([.voice: callsPerSecond]) }

    /// Whether `channel` is paced.
    public func paces(_ channel: ChannelKind) -> Bool { rates[channel] != nil }

    /// Slots free at `now` on each paced channel: how many of its deliveries a claim may take.
    public func free(at now: Date) -> [ChannelKind: Int] {
        seconds.withLock { $0.mapValues { $0.free(at: now) } }
    }

    /// Takes a slot for a send on `channel` at `now`; always true for a channel not paced.
    public func take(_ channel: ChannelKind, at now: Date) -> Bool {
        guard paces(channel) else { return true }
        return seconds.withLock { $0[channel]?.take(at: now) ?? true }
    }
}
