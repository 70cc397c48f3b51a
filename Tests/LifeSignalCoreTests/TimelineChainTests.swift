import Foundation
import LifeSignalModels
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
        let head = (sequence: entries.last!.sequence, hash: entries.last!.hash)
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
}
