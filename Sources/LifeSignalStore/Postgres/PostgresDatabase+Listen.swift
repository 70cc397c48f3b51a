import Foundation
import Logging
import PostgresNIO
import Synchronization

extension PostgresDatabase {
    /// Sends `payload` to every listener of `channel`, on every instance (PostgreSQL `NOTIFY`).
    ///
    /// Sent at once, in its own transaction. To send only if a change commits, run
    /// `SELECT pg_notify(?, ?)` inside that `write` instead: PostgreSQL delivers it at commit.
    /// Payloads are text under 8000 bytes; listeners may miss events while reconnecting, so
    /// treat an event as "something changed, read again", never as the data itself.
    public func notify(channel: String, payload: String) async throws {
        try Self.validate(channel: channel)
        _ = try await write { db in
            try await db.execute("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)])
        }
    }

    /// Listens on `channel` (PostgreSQL `LISTEN`) and yields each payload sent with `notify`.
    ///
    /// Returns once the `LISTEN` is in place: every notification sent after that arrives, in
    /// order. The listener holds one pooled connection of its own for as long as the stream is
    /// consumed; if that connection drops it reconnects (backing off up to 5 s), and events
    /// sent while it was away are lost. The stream ends when the consumer stops iterating
    /// (the `UNLISTEN` is sent) or when the database is closed. Use one listener per channel
    /// and instance, and fan out inside the process.
    public func listen(channel: String) async throws -> AsyncStream<String> {
        try Self.validate(channel: channel)
        let isClosed = closed.withLock { $0 }
        if isClosed { throw StoreError.unavailable("database closed") }
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let ready = Locked<CheckedContinuation<Void, any Error>?>(nil)
        let id = nextListener.withLock { n in
            defer { n += 1 }
            return n
        }
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            ready.withLock { $0 = started }
            let task = Task {
                var backoff = Duration.milliseconds(250)
                while !Task.isCancelled {
                    let listening = Locked(false)
                    do {
                        try await self.withLeasedConnection { connection in
                            try await connection.listen(on: channel) { notifications in
                                ready.withLock { $0.take() }?.resume()
                                listening.withLock { $0 = true }
                                for try await notification in notifications {
                                    continuation.yield(notification.payload)
                                }
                            }
                        }
                    } catch {
                        if let started = ready.withLock({ $0.take() }) {
                            // The first LISTEN failed: report it to the caller.
                            started.resume(throwing: PostgresErrors.map(error))
                            break
                        }
                        if Task.isCancelled { break }
                        self.logger.warning(
                            "PostgreSQL LISTEN lost, reconnecting",
                            metadata: ["channel": "\(channel)", "error": "\(error)"])
                    }
                    if Task.isCancelled { break }
                    if listening.withLock({ $0 }) { backoff = .milliseconds(250) }
                    try? await Task.sleep(for: backoff)
                    backoff = min(backoff * 2, .seconds(5))
                }
                ready.withLock { $0.take() }?.resume(throwing: CancellationError())
                continuation.finish()
                _ = self.listeners.withLock { $0.removeValue(forKey: id) }
            }
            listeners.withLock { $0[id] = task }
            continuation.onTermination = { _ in task.cancel() }
        }
        return stream
    }

    /// Channel names are quoted identifiers: 1 to 63 bytes, no double quote or NUL.
    static func validate(channel: String) throws {
        guard (1...63).contains(channel.utf8.count), !channel.contains("\""), !channel.contains("\0") else {
            throw StoreError.sql("invalid channel name \(channel.debugDescription)")
        }
    }
}
