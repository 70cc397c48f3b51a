import Foundation
import LifeSignalCore
import Logging
import Testing

@Suite("Live environment")
struct ServiceEnvironmentTests {
    /// The identifiers draw their randomness from a pool refilled every 256 of them: across many
    /// refills they stay version 7, in time order, and never repeat.
    @Test func liveIdentifiersAreDistinctVersion7AcrossPoolRefills() {
        let environment = ServiceEnvironment.live(logger: Logger(label: "test"))
        let ids = (0..<5_000).map { _ in environment.uuid() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.uuid.6 >> 4 == 7 && $0.uuid.8 >> 6 == 0b10 })
        // The random part is not constant (a pool that was never filled would be all zeros).
        #expect(Set(ids.map { $0.uuid.15 }).count > 200)
    }
}
