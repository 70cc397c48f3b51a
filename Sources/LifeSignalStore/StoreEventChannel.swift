/// Messages between server instances sharing one PostgreSQL database (LISTEN/NOTIFY): what
/// the server's event relay needs of the store, and nothing more. SQLite has one instance and
/// no channel (`Store.eventChannel` is nil).
public struct StoreEventChannel: Sendable {
    let database: PostgresDatabase

    /// The payloads sent on `channel` from now on, by any instance (this one's included).
    public func listen(_ channel: String) async throws -> AsyncStream<String> {
        try await database.listen(channel: channel)
    }

    /// Sends `payloads` on `channel`, in order, in one transaction.
    public func notify(_ channel: String, _ payloads: [String]) async throws {
        guard !payloads.isEmpty else { return }
        try await database.write { db in
            let tx = StoreTransaction(db: db)
            for payload in payloads { try await tx.notify(channel: channel, payload: payload) }
        }
    }
}

extension StoreTransaction {
    /// PostgreSQL: queues a NOTIFY that is sent when this transaction commits.
    public func notify(channel: String, payload: String) async throws {
        try await db.execute("SELECT pg_notify(?, ?)", channel, payload)
    }
}
