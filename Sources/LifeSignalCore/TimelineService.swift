import Foundation
import LifeSignalModels
import LifeSignalStore

extension LifeSignalService {
    public func timeline(_ caller: Caller, after: Int = 0, limit: Int = 10_000) async throws -> [TimelineEntry] {
        try await read { try await $0.timeline(of: caller.user.id, after: after, limit: min(max(limit, 1), 10_000)) }
    }

    /// Recomputes every hash and link of the caller's timeline.
    public func verifyTimeline(_ caller: Caller) async throws -> TimelineVerification {
        Self.verify(try await timeline(caller))
    }

    public static func verify(_ entries: [TimelineEntry]) -> TimelineVerification {
        var previous = TimelineEntry.genesisHash
        for (index, entry) in entries.enumerated() {
            let hash = StoreTransaction.timelineHash(
                previousHash: entry.previousHash, sequence: entry.sequence, userID: entry.userID, at: entry.at,
                kind: entry.kind, summary: entry.summary, detail: entry.detail)
            guard entry.previousHash == previous, entry.hash == hash, entry.sequence == index + 1 else {
                return TimelineVerification(valid: false, entries: entries.count, firstBadSequence: entry.sequence, headHash: previous)
            }
            previous = hash
        }
        return TimelineVerification(valid: true, entries: entries.count, firstBadSequence: nil, headHash: previous)
    }
}
