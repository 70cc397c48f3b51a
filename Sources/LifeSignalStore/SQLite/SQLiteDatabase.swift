import Foundation
import Synchronization

/// The embedded store: one SQLite file in WAL mode, one writer connection and a
/// small pool of readers, so reads never wait behind writes.
///
/// Transactions are async (the same contract as PostgreSQL). The writer is held by one
/// transaction at a time through a FIFO semaphore; SQLite work itself is synchronous and
/// short, so it runs inline on the calling task.
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    public let path: String

    private let writer: SQLiteConnection
    private let writeLock = AsyncSemaphore(permits: 1)
    private let readers: Mutex<[SQLiteConnection]>
    private let readLock: AsyncSemaphore

    /// Opens (creating if needed) the database at `path`.
    /// - Parameter synchronous: `NORMAL` survives a crash of the process (a commit is in the
    ///   WAL before it returns); `FULL` also survives power loss, at the cost of an fsync per commit.
    public init(path: String, readers readerCount: Int = 4, synchronous: String = "NORMAL") throws {
        self.path = path
        writer = try SQLiteConnection(path: path, readOnly: false)
        try writer.run(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = \(synchronous == "FULL" ? "FULL" : "NORMAL");
            PRAGMA foreign_keys = ON;
            PRAGMA temp_store = MEMORY;
            """)
        var pool: [SQLiteConnection] = []
        for _ in 0..<max(1, readerCount) {
            // Opened read-write so it can map the WAL index, then fenced to queries only.
            let reader = try SQLiteConnection(path: path, readOnly: false)
            try reader.run("PRAGMA query_only = ON;")
            pool.append(reader)
        }
        readers = Mutex(pool)
        readLock = AsyncSemaphore(permits: pool.count)
    }

    public func write<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await writeLock.withPermit {
            try writer.run("BEGIN IMMEDIATE")
            do {
                let result = try await body(SQLiteExecutor(connection: writer))
                try writer.run("COMMIT")
                return result
            } catch {
                try? writer.run("ROLLBACK")
                throw error
            }
        }
    }

    public func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await readLock.withPermit {
            let connection = readers.withLock { $0.removeLast() }
            defer { readers.withLock { $0.append(connection) } }
            try connection.run("BEGIN")
            defer { try? connection.run("COMMIT") }
            return try await body(SQLiteExecutor(connection: connection))
        }
    }

    public func executeScript(_ sql: String) async throws {
        try await writeLock.withPermit { try writer.run(sql) }
    }

    public func ping() async -> Bool {
        (try? await read { try await $0.query("SELECT 1 AS one", []) }.count == 1) ?? false
    }

    public func close() async {}
}

struct SQLiteExecutor: SQLExecutor {
    let connection: SQLiteConnection
    var dialect: SQLDialect { .sqlite }

    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> Int {
        try connection.execute(sql, binds)
    }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try connection.query(sql, binds)
    }
}
