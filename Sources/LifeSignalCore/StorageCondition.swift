import Foundation
import Synchronization

/// Whether storage is full, as the writes of this process find it: a read (what a health probe
/// does) still succeeds on a full disk, so only a failed write can tell. Red from the first
/// write refused for want of space; green again once none has been refused for
/// ``memory`` seconds, so freeing space needs no restart.
final class StorageCondition: Sendable {
    /// How long after the last write refused for want of space storage counts as full.
    static let memory: TimeInterval = 15

    private let lastFull = Mutex<Date?>(nil)

    func failedFull(at date: Date) {
        lastFull.withLock { $0 = max($0 ?? date, date) }
    }

    /// When a write was last refused for want of space, if within ``memory`` of `now`.
    func fullSince(now: Date) -> Date? {
        lastFull.withLock { last in
            guard let last, now.timeIntervalSince(last) <= Self.memory else { return nil }
            return last
        }
    }
}
