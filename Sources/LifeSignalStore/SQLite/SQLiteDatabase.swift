import CSQLite
import Foundation
import Synchronization

/// The embedded store: one SQLite file in WAL mode, one writer connection and a
/// small pool of readers, so reads never wait behind writes.
///
/// Transactions are async (the same contract as PostgreSQL). Writes use group commit:
/// transactions that arrive while the writer is busy queue up (FIFO), and the first of
/// them to run takes the whole queue into one SQLite transaction, each in its own
/// savepoint. A transaction that fails rolls back to its savepoint alone; each one returns
/// only after the shared COMMIT, so nothing is acknowledged before it is committed.
/// SQLite work itself is synchronous and short, so it runs inline on the leading task.
public final class SQLiteDatabase: SQLDatabase {
    public let dialect = SQLDialect.sqlite
    public let path: String

    private let writer: SQLiteConnection
    /// Held while a batch or a script runs on the writer connection.
    private let writeLock = AsyncSemaphore(permits: 1)
    private let writeQueue = Mutex(WriteQueue())
    private let readers: Mutex<[SQLiteConnection]>
    private let readLock: AsyncSemaphore
    private let checkpointer: SQLiteCheckpointer
    /// The most transactions one COMMIT carries.
    private let maxBatch: Int
    /// Set by ``close()``: every later transaction fails at once.
    private let closed = Mutex(false)
    private let readerCount: Int

    /// Opens (creating if needed) the database at `path`.
    /// - Parameter synchronous: `NORMAL` survives a crash of the process (a commit is in the
    ///   WAL before it returns); `FULL` also survives power loss, at the cost of an fsync per commit.
    /// - Parameter maxBatch: the most write transactions that share one COMMIT.
    /// - Parameter writerCacheKiB: the writer's page cache. Every write runs on that one
    ///   connection, so its cache holds the hot pages of a large database (SQLite's default is
    ///   2 MB, which a batch of escalation steps over a million users outgrows many times).
    ///   Readers keep the default: a reader drops its cache whenever another connection commits.
    /// - Parameter checkpointPages: WAL size (in pages) that triggers a checkpoint, which runs
    ///   on a thread of its own (see `SQLiteCheckpointer`). Commits are durable in the WAL either way.
    public init(
        path: String, readers readerCount: Int = 4, synchronous: String = "NORMAL", maxBatch: Int = 128,
        writerCacheKiB: Int = 65_536, checkpointPages: Int = 1_000
    ) throws {
        self.path = path
        self.maxBatch = max(1, maxBatch)
        writer = try SQLiteConnection(path: path, readOnly: false)
        try writer.run(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = \(synchronous == "FULL" ? "FULL" : "NORMAL");
            PRAGMA foreign_keys = ON;
            PRAGMA temp_store = MEMORY;
            PRAGMA cache_size = -\(max(2_000, writerCacheKiB));
            """)
        var pool: [SQLiteConnection] = []
        for _ in 0..<max(1, readerCount) {
            // Opened read-write so it can map the WAL index, then fenced to queries only.
            let reader = try SQLiteConnection(path: path, readOnly: false)
            try reader.run("PRAGMA query_only = ON;")
            pool.append(reader)
        }
        readers = Mutex(pool)
        self.readerCount = pool.count
        readLock = AsyncSemaphore(permits: pool.count)
        checkpointer = try SQLiteCheckpointer(path: path, pages: checkpointPages)
        writer.setCheckpointer(checkpointer)
    }

    deinit {
        writer.setCheckpointer(nil)
        checkpointer.stop()
    }

    public func write<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        // The caller waits until its transaction has run and committed, so the closure never
        // outlives this call even though another task may be the one that runs it.
        try await withoutActuallyEscaping(body) { body in
            let job = WriteJob<T>(body: body)
            let role = await withCheckedContinuation { (continuation: CheckedContinuation<WriteRole, Never>) in
                let leads = writeQueue.withLock { queue -> Bool in
                    queue.pending.append(job)
                    if queue.leaderActive {
                        job.continuation = continuation
                        return false
                    }
                    queue.leaderActive = true
                    return true
                }
                if leads { continuation.resume(returning: .lead) }
            }
            if role == .lead { await runBatch() }
            return try job.takeResult()
        }
    }

    /// Runs the queued transactions (the leader's own first) in one SQLite transaction, then
    /// hands the writer to the next queued transaction and wakes those that finished.
    private func runBatch() async {
        await writeLock.wait()
        let batch = writeQueue.withLock { queue -> [any AnyWriteJob] in
            let count = min(queue.pending.count, maxBatch)
            let taken = Array(queue.pending.prefix(count))
            queue.pending.removeFirst(count)
            return taken
        }
        if closed.withLock({ $0 }) {
            for job in batch { job.fail(Self.closedError) }
        } else {
            await run(batch)
        }
        writeLock.signal()
        let next = writeQueue.withLock { queue -> CheckedContinuation<WriteRole, Never>? in
            guard let first = queue.pending.first else {
                queue.leaderActive = false
                return nil
            }
            return first.takeContinuation()
        }
        next?.resume(returning: .lead)
        for job in batch { job.wake() }
    }

    /// One transaction for the batch; a savepoint per job when there are several.
    private func run(_ batch: [any AnyWriteJob]) async {
        let executor = SQLiteExecutor(connection: writer)
        var index = 0
        while index < batch.count {
            do {
                try writer.run("BEGIN IMMEDIATE")
            } catch {
                for job in batch[index...] { job.fail(error) }
                return
            }
            let first = index
            let single = batch.count - first == 1
            var lost: (any Error)?
            while index < batch.count {
                let job = batch[index]
                index += 1
                if single {
                    if !(await job.run(executor)) { lost = job.error }
                    break
                }
                do {
                    try writer.run("SAVEPOINT tx")
                } catch {
                    job.fail(error)
                    if writer.isAutocommit { lost = error; break }
                    continue
                }
                if await job.run(executor) {
                    do { try writer.run("RELEASE tx") } catch { job.fail(error) }
                } else {
                    try? writer.run("ROLLBACK TO tx; RELEASE tx")
                }
                // Some errors (I/O, full disk) end the whole transaction, not just the statement:
                // what ran before in this batch is gone too.
                if writer.isAutocommit { lost = job.error ?? StoreError.unavailable("transaction rolled back"); break }
            }
            if let lost, writer.isAutocommit {
                if !single {
                    for job in batch[first..<index] where job.succeeded { job.fail(lost) }
                }
                continue
            }
            if single, lost != nil {
                try? writer.run("ROLLBACK")
                continue
            }
            do {
                try writer.run("COMMIT")
            } catch {
                try? writer.run("ROLLBACK")
                for job in batch[first..<index] where job.succeeded { job.fail(error) }
            }
        }
    }

    public func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await readLock.withPermit {
            guard !closed.withLock({ $0 }) else { throw Self.closedError }
            let connection = readers.withLock { $0.removeLast() }
            defer { readers.withLock { $0.append(connection) } }
            try connection.run("BEGIN")
            defer { try? connection.run("COMMIT") }
            return try await body(SQLiteExecutor(connection: connection))
        }
    }

    public func readStatement<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await readLock.withPermit {
            guard !closed.withLock({ $0 }) else { throw Self.closedError }
            let connection = readers.withLock { $0.removeLast() }
            defer { readers.withLock { $0.append(connection) } }
            return try await body(SQLiteExecutor(connection: connection))
        }
    }

    public func executeScript(_ sql: String) async throws {
        try await writeLock.withPermit {
            guard !closed.withLock({ $0 }) else { throw Self.closedError }
            try writer.run(sql)
        }
    }

    public func ping() async -> Bool {
        (try? await read { try await $0.query("SELECT 1 AS one", []) }.count == 1) ?? false
    }

    /// Closes the file cleanly: waits for the write and the reads under way (later ones fail),
    /// copies the WAL back into the database and truncates it, stops the checkpoint thread and
    /// closes every connection — so the file is whole on its own, with no WAL to replay.
    /// Idempotent.
    public func close() async {
        let already = await writeLock.withPermit {
            closed.withLock { closed in
                defer { closed = true }
                return closed
            }
        }
        guard !already else { return }
        // Every reader back in the pool (none is taken again: reads now fail).
        for _ in 0..<readerCount { await readLock.wait() }
        await writeLock.withPermit {
            writer.setCheckpointer(nil)
            checkpointer.stopAndClose()
            try? writer.run("PRAGMA wal_checkpoint(TRUNCATE)")
            for reader in readers.withLock({ $0 }) { reader.close() }
            writer.close()
        }
        for _ in 0..<readerCount { readLock.signal() }
    }

    static let closedError = StoreError.unavailable("the database is closed")
}

private enum WriteRole: Sendable { case lead, wait }

private struct WriteQueue: ~Copyable {
    var pending: [any AnyWriteJob] = []
    /// Whether a task is running (or about to run) a batch; it hands over to the next in line.
    var leaderActive = false
}

/// A queued write transaction, whatever it returns.
private protocol AnyWriteJob: AnyObject, Sendable {
    /// Runs the transaction's body; false when it threw.
    func run(_ executor: SQLiteExecutor) async -> Bool
    var succeeded: Bool { get }
    var error: (any Error)? { get }
    /// Turns a success into this failure (its work was rolled back after all).
    func fail(_ error: any Error)
    func takeContinuation() -> CheckedContinuation<WriteRole, Never>?
    /// Tells the waiting caller its transaction is done (nothing for the leader, who is not waiting).
    func wake()
}

/// Fields are touched by the caller only before it queues the job and after it is woken, and by
/// the leader in between (under the queue's lock for `continuation`).
private final class WriteJob<T: Sendable>: AnyWriteJob, @unchecked Sendable {
    private var body: (@Sendable (any SQLExecutor) async throws -> T)?
    private var result: Result<T, any Error>?
    var continuation: CheckedContinuation<WriteRole, Never>?

    init(body: @escaping @Sendable (any SQLExecutor) async throws -> T) { self.body = body }

    func run(_ executor: SQLiteExecutor) async -> Bool {
        let body = self.body!
        self.body = nil
        do {
            result = .success(try await body(executor))
            return true
        } catch {
            result = .failure(error)
            return false
        }
    }

    var succeeded: Bool { if case .success = result { true } else { false } }

    var error: (any Error)? { if case let .failure(error) = result { error } else { nil } }

    func fail(_ error: any Error) {
        body = nil
        result = .failure(error)
    }

    func takeContinuation() -> CheckedContinuation<WriteRole, Never>? {
        defer { continuation = nil }
        return continuation
    }

    func wake() { takeContinuation()?.resume(returning: .wait) }

    func takeResult() throws -> T {
        guard let result else { throw StoreError.unavailable("the write transaction did not run") }
        return try result.get()
    }
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
