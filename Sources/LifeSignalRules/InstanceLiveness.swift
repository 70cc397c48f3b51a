import Foundation

/// When one server instance counts another as dead, and may take its work over.
///
/// Every instance writes a heartbeat into the shared database every `heartbeatSeconds` and
/// looks at the others' every `watchSeconds`. A peer whose last heartbeat is more than
/// `silentAfterSeconds` old is dead: its delivery leases are released so the survivors send
/// its alerts at once instead of after the 120-second lease. With a 10-second heartbeat and a
/// 30-second silence, a peer is declared dead 20–32 s after it died, leaving room to send its
/// alerts inside 40 s.
///
/// An instance judges others only after its own heartbeats have gone through without a break
/// for a whole silence window: after a database outage every instance looks silent to every
/// other until each has written again, and a survivor that judged at once would take over
/// live peers' in-flight sends (and send them twice).
public struct InstanceLiveness: Sendable, Equatable {
    public var heartbeatSeconds: TimeInterval
    public var silentAfterSeconds: TimeInterval
    public var watchSeconds: TimeInterval
    /// How long a dead peer stays listed as missing (in `/health`) before its row is forgotten.
    public var forgetAfterSeconds: TimeInterval

    public init(
        heartbeatSeconds: TimeInterval = 10, silentAfterSeconds: TimeInterval = 30, watchSeconds: TimeInterval = 2,
        forgetAfterSeconds: TimeInterval = 900
    ) {
        self.heartbeatSeconds = heartbeatSeconds
        self.silentAfterSeconds = silentAfterSeconds
        self.watchSeconds = watchSeconds
        self.forgetAfterSeconds = forgetAfterSeconds
    }

    public static let `default` = InstanceLiveness()

    /// Whether a peer last heard from at `lastSeen` counts as dead at `now`.
    public func isSilent(lastSeen: Date, now: Date) -> Bool {
        now.timeIntervalSince(lastSeen) > silentAfterSeconds
    }

    /// Heartbeats older than this, at `now`, are silent ones.
    public func silentBefore(_ now: Date) -> Date { now.addingTimeInterval(-silentAfterSeconds) }

    /// Dead peers whose last heartbeat is older than this, at `now`, are forgotten.
    public func forgottenBefore(_ now: Date) -> Date { now.addingTimeInterval(-forgetAfterSeconds) }

    /// Whether an instance whose heartbeats have all gone through since `healthySince` (nil:
    /// the last one failed) may declare others dead at `now`: only once it has itself been
    /// heard from for a whole silence window, so a peer that was cut off by the same outage
    /// has had its chance to write again.
    public func mayJudge(healthySince: Date?, now: Date) -> Bool {
        guard let healthySince else { return false }
        return now.timeIntervalSince(healthySince) >= silentAfterSeconds
    }

    /// Whether a heartbeat is due at `now` after the last one written at `lastBeat`.
    public func heartbeatDue(lastBeat: Date?, now: Date) -> Bool {
        guard let lastBeat else { return true }
        return now.timeIntervalSince(lastBeat) >= heartbeatSeconds
    }
}
