import Crypto
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
            let text = TimelineEntry.canonicalText(
                previousHash: entry.previousHash, sequence: entry.sequence, userID: entry.userID,
                atMilliseconds: entry.at.milliseconds, kind: entry.kind, summary: entry.summary, detail: entry.detail)
            let hash = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
            guard entry.previousHash == previous, entry.hash == hash, entry.sequence == index + 1 else {
                return TimelineVerification(valid: false, entries: entries.count, firstBadSequence: entry.sequence, headHash: previous)
            }
            previous = hash
        }
        return TimelineVerification(valid: true, entries: entries.count, firstBadSequence: nil, headHash: previous)
    }
}
