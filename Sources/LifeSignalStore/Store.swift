import Foundation
import LifeSignalModels

/// The storage interface of the service: typed reads and writes over either database.
///
/// All SQL of the product lives in this target. `write` runs one transaction: a state
/// change and the outbox rows it causes commit together or not at all.
public struct Store: Sendable {
    /// The database itself stays inside this target: what others need of it are the
    /// capabilities below (`ping`, `close`, `eventChannel`, `transactionsInFlight`).
    let database: any SQLDatabase
    let activity = StoreActivity()
    /// Seals every timeline head a transaction moves (see ``sealingTimelines(with:)``).
    var timelineKey: [UInt8]?

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// This store, sealing each timeline head it moves with `key` (the server's key): the
    /// service opens its store this way, so only the key's holder can write a head that
    /// verifies.
    public func sealingTimelines(with key: [UInt8]) -> Store {
        var sealing = self
        sealing.timelineKey = key
        return sealing
    }

    /// The raw database, for store tests and the data copy's tests only.
    @_spi(Testing) public var rawDatabase: any SQLDatabase { database }

    /// Whether the database answers (health checks).
    public func ping() async -> Bool { await database.ping() }

    /// Closes the connections; nothing can be read or written afterwards.
    public func close() async { await database.close() }

    /// The process ids of the database server's backends, for the benchmarks' CPU accounting;
    /// empty on SQLite, which runs inside this process.
    public func serverProcessIDs() async throws -> [Int] {
        guard database.dialect == .postgres else { return [] }
        return try await database.read { db in
            try await db.query("SELECT pid FROM pg_stat_activity", []).map { try $0.int("pid") }
        }
    }

    /// LISTEN/NOTIFY between instances on PostgreSQL; nil on SQLite (one instance).
    public var eventChannel: StoreEventChannel? {
        (database as? PostgresDatabase).map(StoreEventChannel.init(database:))
    }

    /// Opens the database named by `url`: a file path (SQLite) or `postgres://…`.
    public static func open(_ url: String, logger: Logger? = nil) async throws -> Store {
        let database: any SQLDatabase
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            database = try await PostgresDatabase.connect(url: url, logger: logger)
        } else {
            let path = url.hasPrefix("sqlite://") ? String(url.dropFirst("sqlite://".count)) : url
            database = try SQLiteDatabase(path: path)
        }
        try await Migrator.migrate(database)
        return Store(database: database)
    }

    public func write<T: Sendable>(_ body: @Sendable (StoreTransaction) async throws -> T) async throws -> T {
        activity.begin()
        defer { activity.end() }
        return try await database.write { db in
            let tx = StoreTransaction(db: db, timelineKey: timelineKey)
            let result = try await body(tx)
            try await tx.finish()
            return result
        }
    }

    public func read<T: Sendable>(_ body: @Sendable (StoreTransaction) async throws -> T) async throws -> T {
        activity.begin()
        defer { activity.end() }
        return try await database.read { try await body(StoreTransaction(db: $0)) }
    }

    /// The session a bearer token opens and its person: one statement, run without an explicit
    /// transaction (a single statement sees one consistent snapshot by itself). Every
    /// authenticated request starts here; on PostgreSQL this is one round trip instead of four
    /// (`BEGIN`, the session, the user, `COMMIT`).
    public func sessionWithUser(tokenHash: String) async throws -> SignedInSession? {
        activity.begin()
        defer { activity.end() }
        return try await database.readStatement { try await StoreTransaction(db: $0).sessions.sessionWithUser(tokenHash: tokenHash) }
    }
}

/// Typed access to the tables inside one transaction.
public struct StoreTransaction: Sendable {
    let db: any SQLExecutor
    /// Timeline entries and heads this transaction appended, written by `finish()` at the latest.
    let timelineBuffer = TimelineBuffer()
    /// The key moved heads are sealed with; nil writes no seal (store tests, tools).
    let timelineKey: [UInt8]?

    /// A transaction over `db`. `Store.write` opens these; one opened by hand that appends to a
    /// timeline must call `finish()` before it commits.
    @_spi(Testing) public init(db: any SQLExecutor, timelineKey: [UInt8]? = nil) {
        self.db = db
        self.timelineKey = timelineKey
    }

    /// The statements' executor, for store tests that check what was written.
    @_spi(Testing) public var executor: any SQLExecutor { db }

    /// Writes what the transaction kept in memory (timeline entries and heads) to the database.
    public func finish() async throws {
        try await timeline.writeEntries()
        try await timeline.writeHeads()
    }

    var dialect: SQLDialect { db.dialect }

    /// `FOR NO KEY UPDATE SKIP LOCKED` on PostgreSQL; SQLite has one writer and needs nothing.
    var skipLocked: String { dialect == .postgres ? " \(Self.rowLock) SKIP LOCKED" : "" }

    /// Ends a read of one row this transaction is about to change: locks it on PostgreSQL.
    var lockRow: String { dialect == .postgres ? " \(Self.rowLock)" : "" }

    /// Ends a read of many such rows: locks them in id order on PostgreSQL, so two transactions
    /// locking overlapping sets never wait on each other in opposite orders.
    var lockRowsInIDOrder: String { dialect == .postgres ? " ORDER BY id \(Self.rowLock)" : "" }

    /// The lock PostgreSQL takes on a row a read is about to change. `NO KEY UPDATE`, because no
    /// write here changes a key: it still excludes every other writer of the row, but not the
    /// `KEY SHARE` lock a foreign-key check takes. With plain `FOR UPDATE`, an engine holding a
    /// batch of people and a worker holding a timeline head could each wait on the other's
    /// notification insert (its check of the recipient's row): a deadlock.
    static let rowLock = "FOR NO KEY UPDATE"
}

import Logging
