import Foundation
import LifeSignalModels
import LifeSignalStore

/// A person's tamper-evident history: pages of it, and a check of its hash chain.
public struct Timeline: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Timeline {
    /// One page of the caller's timeline, oldest first: the entries after `after`, at most `limit`.
    public func timeline(_ caller: Caller, after: Int = 0, limit: Int = 10_000) async throws -> [TimelineEntry] {
        try await core.read { try await $0.timeline.entries(of: caller.user.id, after: after, limit: min(max(limit, 1), 10_000)) }
    }

    /// The caller's whole timeline, a page at a time (however long it grows), oldest first.
    public func forEachTimelinePage(
        _ caller: Caller, pageSize: Int = 2_000, upTo last: Int = .max, _ body: ([TimelineEntry]) async throws -> Void
    ) async throws {
        var after = 0
        while after < last {
            let page = try await timeline(caller, after: after, limit: pageSize).filter { $0.sequence <= last }
            guard let newest = page.last else { return }
            try await body(page)
            after = newest.sequence
        }
    }

    /// Recomputes every hash and link of the caller's timeline, page by page, and checks that
    /// the chain ends where the account's stored head says it does: a missing tail is caught.
    public func verifyTimeline(_ caller: Caller) async throws -> TimelineVerification {
        // The head is read first: entries appended while we verify are not part of this check.
        let (head, seal) = try await core.read { tx in
            (try await tx.timeline.head(of: caller.user.id), try await tx.timeline.seal(of: caller.user.id))
        }
        guard let head else { throw ServiceError.unauthorized }
        var chain = TimelineChain()
        try await forEachTimelinePage(caller, upTo: head.sequence) { page in
            guard chain.bad == nil else { return }
            chain.add(page)
        }
        let result = chain.result(head: head)
        // The chain can be recomputed by anyone who can write the database; its head's seal
        // only by the holder of the server's key.
        let expected = StoreTransaction.timelineSeal(
            key: core.configuration.serverKey, userID: caller.user.id, sequence: head.sequence, hash: head.hash)
        guard result.valid, head.sequence > 0, seal.map({ !Secrets.constantTimeEquals($0, expected) }) ?? true else {
            return result
        }
        return TimelineVerification(
            valid: false, entries: result.entries, firstBadSequence: nil, headHash: result.headHash,
            reason: seal == nil
                ? "The history has no seal, so it can't be checked against this server's key."
                : "The history's seal does not match: it was changed outside LifeSignal.")
    }

    public static func verify(_ entries: [TimelineEntry]) -> TimelineVerification {
        var chain = TimelineChain()
        chain.add(entries)
        return chain.result(head: nil)
    }
}

/// A running check of a hash chain, fed in pages.
struct TimelineChain {
    private(set) var count = 0
    private(set) var previous = TimelineEntry.genesisHash
    private(set) var bad: Int?

    mutating func add(_ entries: [TimelineEntry]) {
        for entry in entries where bad == nil {
            let hash = StoreTransaction.timelineHash(
                previousHash: entry.previousHash, sequence: entry.sequence, userID: entry.userID, at: entry.at,
                kind: entry.kind, summary: entry.summary, detail: entry.detail)
            guard entry.previousHash == previous, entry.hash == hash, entry.sequence == count + 1 else {
                bad = entry.sequence
                return
            }
            previous = hash
            count += 1
        }
    }

    func result(head: TimelineHead?) -> TimelineVerification {
        if let bad {
            return TimelineVerification(
                valid: false, entries: count, firstBadSequence: bad, headHash: previous,
                reason: "Entry \(bad) does not match the entries before it: the history was changed.")
        }
        if let head, head.sequence != count || head.hash != previous {
            let missing = head.sequence - count
            return TimelineVerification(
                valid: false, entries: count, firstBadSequence: count + 1, headHash: previous,
                reason: missing > 0
                    ? "The newest \(missing) entr\(missing == 1 ? "y is" : "ies are") missing."
                    : "The history does not end where your account says it does.")
        }
        return TimelineVerification(valid: true, entries: count, firstBadSequence: nil, headHash: previous)
    }
}
