import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
@_spi(Testing) import LifeSignalCore
import LifeSignalModels
@testable @_spi(Testing) import LifeSignalServer
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import Testing

/// Failing fast and honestly: a full disk, a database that does not answer.
@Suite("Storage failures")
struct StorageFailureTests {
    /// SQLite's page limit stands in for a full disk: the first refused write turns `/health`
    /// red and the API says storage is full (503, `Retry-After`); once there is room again,
    /// check-ins are stored and health turns green, without a restart.
    @Test func aFullDiskTurnsHealthRedAndTheAPISaysSoThenRecovers() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (token, _) = try await client.signUp(world, first: "Ada", phone: "+447700900500")
            func engineBeat() async throws {
                let now = world.clock.now
                try await world.store.write {
                    try await $0.engine.recordHeartbeat(EngineHeartbeat(instance: "test", lastPassAt: now, lastPassMicros: 1))
                }
            }
            func health() async throws -> (HTTPResponse.Status, [String: Any]) {
                try await client.execute(uri: "/health", method: .get) { response in
                    (response.status, try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]))
                }
            }
            try await engineBeat()
            let (green, before) = try await health()
            #expect(green == .ok, "\(before)")
            #expect(before["storageFull"] as? Bool == false)

            // The disk fills up: no page can be added, and what free space was left is taken.
            try await Self.fillStorage(world)

            // (A check-in may still fit in its tables' last pages: the first refused one counts.)
            var refused = try await client.call(
                Operations.checkIn, token: token, json: CheckInBody(id: CheckInID(UUID()), clientAt: world.clock.now))
            for _ in 0..<1000 where refused.status.code < 300 {
                refused = try await client.call(
                    Operations.checkIn, token: token, json: CheckInBody(id: CheckInID(UUID()), clientAt: world.clock.now))
            }
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.error?.code == .storageFull)
            #expect(refused.error?.message.contains("storage is full") == true)
            #expect(refused.headers[.retryAfter] == "30")
            let (red, full) = try await health()
            #expect(red == .serviceUnavailable)
            #expect(full["status"] as? String == "storage full")
            #expect(full["storageFull"] as? Bool == true)
            #expect(full["database"] as? Bool == true, "reads still work: the database answers")

            // Space is freed: the next check-in is stored, and health turns green once no write
            // has been refused for a while.
            try await world.store.write { _ = try await $0.executor.query("PRAGMA max_page_count = 1073741823", []) }
            let stored = try await client.call(
                Operations.checkIn, token: token, json: CheckInBody(id: CheckInID(UUID()), clientAt: world.clock.now))
            #expect(stored.status.code < 300)
            world.clock.advance(by: 16)
            try await engineBeat()
            let (again, after) = try await health()
            #expect(again == .ok, "\(after)")
            #expect(after["storageFull"] as? Bool == false)
        }
    }

    /// The store as a full disk leaves it: its file may not grow, and the free space inside is used up.
    static func fillStorage(_ world: TestWorld) async throws {
        try await world.store.write { tx in
            _ = try await tx.executor.query("CREATE TABLE IF NOT EXISTS test_filler (b BLOB)", [])
        }
        try await world.store.write { tx in
            let pages = try await tx.executor.queryFirst("PRAGMA page_count")?.int("page_count") ?? 0
            _ = try await tx.executor.query("PRAGMA max_page_count = \(pages)", [])
        }
        var filled = false
        for _ in 0..<100_000 where !filled {
            do {
                try await world.store.write { tx in
                    _ = try await tx.executor.query("INSERT INTO test_filler (b) VALUES (zeroblob(512))", [])
                }
            } catch StoreError.full {
                filled = true
            }
        }
        #expect(filled, "the page limit never filled up")
    }

    /// Storage unavailable is a 503 with `Retry-After`, as storage full is (the store's errors
    /// map to these two: `StoreError.unavailable` and `.full`).
    @Test func unavailableStorageAsksToRetrySoon() {
        let unavailable = ErrorMiddleware<AppRequestContext>.response(for: .unavailable)
        #expect(unavailable.status == .serviceUnavailable)
        #expect(unavailable.headers[.retryAfter] == "5")
        let full = ErrorMiddleware<AppRequestContext>.response(for: .storageFull)
        #expect(full.status == .serviceUnavailable)
        #expect(full.headers[.retryAfter] == "30")
    }

    /// `/health` answers within its limit whatever the database does: a probe that does not
    /// finish in time counts as "not answering" and is cancelled.
    @Test func aProbeThatDoesNotAnswerIsCutOffAtTheLimit() async throws {
        let cancelled = AsyncStream<Void>.makeStream()
        let answer = await HealthController.within(.milliseconds(50)) { () async -> Bool in
            // A database that never answers (until it is cancelled).
            try? await Task.sleep(for: .seconds(3600))
            cancelled.continuation.yield()
            return true
        }
        #expect(answer == nil)
        try await withFailureDeadline(seconds: 10, "the stuck probe was not cancelled") {
            for await _ in cancelled.stream { return }
        }
        #expect(await HealthController.within(.seconds(10)) { 42 } == 42)
    }
}
