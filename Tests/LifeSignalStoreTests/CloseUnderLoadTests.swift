import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// `close()` while work is going on: every transaction in flight or waiting for a connection
/// ends (committed or refused) within seconds, and the close itself returns. A whole CI run once
/// hung for an hour on a server test that closed its PostgreSQL store under a running engine.
@Suite("Closing under load", .timeLimit(.minutes(2)))
struct CloseUnderLoadTests {
    @Test("writes in flight when the store closes all end", arguments: Backend.all)
    func writesInFlightAllEnd(backend: Backend) async throws {
        let database = try await TestDatabase.make(backend)
        defer { Task { await database.drop() } }
        for round in 0..<5 {
            let handle = try await database.open()
            try await Migrator.migrate(handle)
            let store = Store(database: handle)
            // More writers than the pool has connections, so some wait for a lease.
            let writers = (0..<24).map { index in
                Task {
                    var done = 0
                    while !Task.isCancelled {
                        do {
                            _ = try await store.write { tx in
                                try await tx.executor.execute("SELECT \(index) AS n", [])
                            }
                            done += 1
                        } catch {
                            return (done, true)
                        }
                    }
                    return (done, false)
                }
            }
            try await Task.sleep(for: .milliseconds(20 * (round + 1)))
            let closing = ContinuousClock.now
            await store.close()
            let closed = ContinuousClock.now - closing
            #expect(closed < .seconds(10), "close took \(closed)")
            // Every writer stops: its next transaction (or the one it was waiting for) is refused.
            let ended = try await Self.within(.seconds(15)) {
                var refused = 0
                for writer in writers where await writer.value.1 { refused += 1 }
                return refused
            }
            #expect(ended == writers.count, "round \(round): a writer kept going after close")
        }
    }

    /// The value of `work`, or a recorded issue after `limit`: a hang becomes a failure (the
    /// stuck task is left behind rather than awaited, which would hang the test too).
    static func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let box = Locked<CheckedContinuation<T, any Error>?>(nil)
        return try await withCheckedThrowingContinuation { continuation in
            box.withLock { $0 = continuation }
            Task {
                let result: Result<T, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                box.withLock { $0.take() }?.resume(with: result)
            }
            Task {
                try? await Task.sleep(for: limit)
                if let continuation = box.withLock({ $0.take() }) {
                    Issue.record("still waiting after \(limit)")
                    continuation.resume(throwing: CancellationError())
                }
            }
        }
    }
}
