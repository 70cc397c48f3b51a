import Foundation
import LifeSignalModels
import Testing

@Suite("Time-ordered identifiers (UUID version 7)")
struct TimeOrderedUUIDTests {
    @Test func layoutIsRFC9562Version7() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let id = UUID.timeOrdered(at: date)
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_700_000_000_123)
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
        // The text form says so too: "xxxxxxxx-xxxx-7xxx-[89ab]xxx-…".
        let text = id.uuidString.lowercased()
        #expect(Array(text)[14] == "7")
        #expect("89ab".contains(Array(text)[19]))
    }

    @Test func idsMadeLaterSortLaterAsStoredText() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let ids = (0..<1_000).map { UUID.timeOrdered(at: start.addingTimeInterval(Double($0) / 100)) }
        let texts = ids.map { $0.uuidString.lowercased() }
        // Each is 10 ms after the one before, so the text order is the time order.
        #expect(texts == texts.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test func idsInTheSameMillisecondDifferInTheirRandomBits() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ids = (0..<10_000).map { _ in UUID.timeOrdered(at: now) }
        #expect(Set(ids).count == ids.count)
        let prefixes = Set(ids.map { $0.uuidString.prefix(13) })
        #expect(prefixes.count == 1, "the time part is shared")
    }

    /// Identifiers compare on their bytes, in exactly the order of the text the databases store
    /// and sort (so a lock order chosen in Swift is the one `ORDER BY id` takes).
    @Test func identifiersOrderAsTheirStoredText() {
        let ids = (0..<2_000).map { _ in UserID(UUID()) } + [UserID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))]
        #expect(ids.sorted().map(\.description) == ids.map(\.description).sorted())
        #expect(!(ids[0] < ids[0]))
    }
}
