import Foundation
import LifeSignalModels
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import Testing

@testable import LifeSignalCore

/// The timeline check reads the history a page at a time and compares its end with the head
/// the account keeps, so removing the newest entries is caught, not only changing one.
struct TimelineChainTests {
    @Test func aMissingTailIsCaughtAndPagesVerifyLikeOneRead() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900301")
        for _ in 0..<5 { _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app) }
        let entries = try await world.timeline.timeline(ada)
        #expect(entries.count >= 6)
        let verified = try await world.timeline.verifyTimeline(ada)
        #expect(verified.valid && verified.entries == entries.count && verified.reason == nil)

        // Pages of two give the same entries as one read.
        var paged: [TimelineEntry] = []
        try await world.timeline.forEachTimelinePage(ada, pageSize: 2) { paged += $0 }
        #expect(paged == entries)

        // The chain without its newest two entries is still a valid chain, but not the account's.
        var chain = TimelineChain()
        chain.add(Array(entries.dropLast(2)))
        let head = TimelineHead(userID: ada.user.id, sequence: entries.last!.sequence, hash: entries.last!.hash)
        let truncated = chain.result(head: head)
        #expect(!truncated.valid)
        #expect(truncated.firstBadSequence == entries.count - 1)
        #expect(truncated.reason == "The newest 2 entries are missing.")

        var changed = entries
        changed[2].summary = "Something else"
        var tampered = TimelineChain()
        tampered.add(changed)
        #expect(tampered.result(head: head).firstBadSequence == 3)
    }

    /// Whoever can write the database can rewrite an entry, every hash after it and the head,
    /// and the chain still links up; the head's seal, keyed with the server's key, does not.
    @Test func aRewriteByADatabaseWriterIsCaughtByTheSeal() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900302")
        for _ in 0..<3 { _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app) }
        #expect(try await world.timeline.verifyTimeline(ada).valid)

        // Entry 2 says something else; every hash from there on and the head are recomputed.
        var entries = try await world.timeline.timeline(ada)
        entries[1].summary = "Nothing happened"
        var previous = entries[0].hash
        for index in 1..<entries.count {
            let entry = entries[index]
            let hash = StoreTransaction.timelineHash(
                previousHash: previous, sequence: entry.sequence, userID: entry.userID, at: entry.at, kind: entry.kind,
                summary: entry.summary, detail: entry.detail)
            entries[index].previousHash = previous
            entries[index].hash = hash
            previous = hash
        }
        let rewritten = entries
        try await world.store.rawDatabase.write { db in
            for entry in rewritten.dropFirst() {
                _ = try await db.execute(
                    "UPDATE timeline SET summary = ?, prev_hash = ?, hash = ? WHERE user_id = ? AND seq = ?", entry.summary,
                    entry.previousHash, entry.hash, entry.userID, entry.sequence)
            }
            _ = try await db.execute("UPDATE users SET timeline_head = ? WHERE id = ?", rewritten.last!.hash, ada.user.id)
        }
        #expect(Timeline.verify(try await world.timeline.timeline(ada)).valid, "the chain itself links up again")
        let caught = try await world.timeline.verifyTimeline(ada)
        #expect(!caught.valid)
        #expect(caught.reason == "The history's seal does not match: it was changed outside LifeSignal.")

        // Removing the seal is no way out.
        try await world.store.rawDatabase.write { db in
            _ = try await db.execute("UPDATE users SET timeline_seal = NULL WHERE id = ?", ada.user.id)
        }
        let unsealed = try await world.timeline.verifyTimeline(ada)
        #expect(!unsealed.valid && unsealed.reason == "The history has no seal, so it can't be checked against this server's key.")
        // Sealing existing history (an operator's one-time step when upgrading) seals it as it stands.
        #expect(try await world.core.sealExistingHistory() == 1)
        #expect(try await world.timeline.verifyTimeline(ada).valid)
    }
}
