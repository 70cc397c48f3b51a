import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// `close()` on SQLite leaves a whole file: the WAL copied back and truncated, every
/// connection closed, later work refused.
@Suite("SQLite closes cleanly", .timeLimit(.minutes(1)))
struct SQLiteCloseTests {
    static func size(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    @Test func closeCheckpointsTheWALAndRefusesLaterWork() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-close-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("close.sqlite").path
        let store = try await Store.open(path)
        let users = (0..<20).map { _ in makeUser() }
        for user in users { _ = try await insertUser(store, user) }
        // Below the checkpoint threshold: the rows are in the WAL, which a crash would leave to replay.
        #expect((Self.size(path + "-wal") ?? 0) > 0, "nothing waited in the WAL: the test proves nothing")

        await store.close()
        #expect((Self.size(path + "-wal") ?? 0) == 0, "the WAL was not checkpointed and truncated")
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        await #expect(throws: StoreError.self) { try await store.read { try await $0.executor.query("SELECT 1 AS one", []).count } }
        await #expect(throws: StoreError.self) { try await store.write { try await $0.executor.execute("DELETE FROM users", []) } }
        await store.close()  // twice: nothing happens

        // The file alone (copied without any WAL or shared-memory file) holds every row.
        let copy = directory.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let reopened = Store(database: try SQLiteDatabase(path: copy))
        let count = try await reopened.read { try await $0.executor.queryFirst("SELECT COUNT(*) AS n FROM users")?.int("n") }
        #expect(count == users.count)
        await reopened.close()
    }
}
