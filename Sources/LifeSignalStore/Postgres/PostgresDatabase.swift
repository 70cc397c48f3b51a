import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The PostgreSQL store, for running several instances against one database.
///
/// Built on postgres-nio's `PostgresClient` (a connection pool) whose `run()` loop lives in a
/// task this object owns; `close()` ends it.
///
/// - `write` runs `BEGIN … COMMIT` (or `ROLLBACK` when the body throws) on one leased
///   connection, at PostgreSQL's default READ COMMITTED isolation: take row locks
///   (`FOR NO KEY UPDATE`, with `SKIP LOCKED` for claims) where a read decides a write.
/// - `read` runs a `REPEATABLE READ, READ ONLY` transaction: one consistent snapshot.
/// - Failing to reach the server never hangs: `connect` probes with one connection bounded by
///   `connect_timeout` (default 2 s); a transaction whose lease waits finds out within about
///   2 s whether the server is there at all (``PostgresPool``) and fails at once when it is
///   not; a busy pool fails a lease after `leaseTimeout` (default 10 s); statements are bounded
///   by the server's `statement_timeout` (default 30 s). All of these surface as
///   `StoreError.unavailable`. After an outage a fresh pool takes over the moment the server
///   answers again, and leases waiting then move to it.
/// - Errors: SQLSTATE class 23 (unique, foreign key, check, not null) → `.constraint`;
///   connection, authentication, resource, shutdown and timeout errors → `.unavailable`;
///   anything else → `.sql`. Errors thrown by a transaction's body pass through unchanged.
///
/// Live events across instances: `notify(channel:payload:)` and `listen(channel:)` (PostgreSQL
/// `NOTIFY`/`LISTEN`), see there.
public final class PostgresDatabase: SQLDatabase {
    public let dialect = SQLDialect.postgres
    public let url: PostgresURL

    let pool: PostgresPool
    let logger: Logger
    /// Named statements that failed on a connection of this pool (they run unnamed there); nil
    /// when the URL turns named statements off.
    let statementUse: PostgresStatementUse?
    /// How long a transaction waits for a free connection before failing as unavailable.
    let leaseTimeout: Duration
    let listeners = Mutex<[Int: Task<Void, Never>]>([:])
    let nextListener = Mutex(0)
    let closed = Mutex(false)
    /// Calls of `withLeasedConnection` not yet returned: `close()` lets them end while the pool
    /// still runs (a lease request left in a stopped pool was never answered).
    private let leases = Mutex(0)

    private static let silent = Logger(label: "lifesignal.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(url: PostgresURL, pool: PostgresPool, logger: Logger, leaseTimeout: Duration) {
        self.url = url
        self.pool = pool
        self.logger = logger
        self.leaseTimeout = leaseTimeout
        statementUse = url.namedStatements ? PostgresStatementUse() : nil
    }

    /// Connects to `url` (`postgres://user:pass@host:port/db?sslmode=disable`, see `PostgresURL`).
    ///
    /// Fails within the URL's `connect_timeout` (default 2 s) with `StoreError.unavailable`
    /// when the server cannot be reached or refuses the role, password or database.
    public static func connect(url: String, logger: Logger? = nil) async throws -> PostgresDatabase {
        // Not shorter: this wait bounds a burst queueing for a busy pool (60 writers on one row
        // take longer than 3 s on a loaded host). A server that is down is found out sooner
        // (see `PostgresPool`).
        try await connect(url: url, logger: logger, leaseTimeout: .seconds(10))
    }

    public static func connect(
        url text: String, logger: Logger?, leaseTimeout: Duration, downWait: Duration = .seconds(2)
    ) async throws -> PostgresDatabase {
        let url = try PostgresURL(text)
        let logger = logger ?? silent

        // Probe with a single connection first: the pool retries failed connects with backoff
        // for a long time, while a direct connect answers at once with the server's reason.
        let configuration = try url.connectionConfiguration()
        do {
            let probe = try await withDeadline(url.connectTimeout, "connecting to \(url.displayName)") {
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            }
            try? await probe.close()
        } catch {
            throw StoreError.unavailable("cannot connect to \(url.displayName): \(describe(error))")
        }

        let database = PostgresDatabase(
            url: url, pool: PostgresPool(url: url, logger: logger, downWait: downWait), logger: logger, leaseTimeout: leaseTimeout)
        guard await database.ping(timeout: url.connectTimeout) else {
            await database.close()
            throw StoreError.unavailable("cannot connect to \(url.displayName)")
        }
        return database
    }

    // MARK: Transactions

    public func write<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            try await withLeasedConnection { connection in
                try await self.transaction(on: connection, readOnly: false, body)
            }
        }
    }

    public func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            try await withLeasedConnection { connection in
                try await self.transaction(on: connection, readOnly: true, body)
            }
        }
    }

    public func readStatement<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            try await withLeasedConnection { connection in
                try await body(PostgresExecutor(connection: connection, logger: self.logger, statements: self.statementUse))
            }
        }
    }

    /// `BEGIN` (with the isolation level, in the same round trip), the body, then `COMMIT`;
    /// `ROLLBACK` when the body throws, whose error passes unchanged (already mapped when it came
    /// from a statement).
    private func transaction<T: Sendable>(
        on connection: PostgresConnection, readOnly: Bool, _ body: @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        let executor = PostgresExecutor(
            connection: connection, logger: logger, statements: statementUse,
            writesCheckInAsOneStatement: !readOnly && url.checkInStatement)
        _ = try await executor.execute(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" : "BEGIN", [])
        let value: T
        do {
            value = try await body(executor)
        } catch {
            await rollBack(executor, on: connection, after: error)
            throw error
        }
        _ = try await executor.execute("COMMIT", [])
        return value
    }

    /// After a transaction's body failed: `ROLLBACK`, unless the connection is gone. postgres-nio
    /// never answers a statement sent on a connection it has closed (a `ROLLBACK` after
    /// `clientClosedConnection` waited for ever, and with it a whole CI run), so a connection
    /// that is closed, or whose failure says the server or connection is unavailable, is closed
    /// instead: PostgreSQL rolls back a transaction whose connection ends, and the pool never
    /// hands out a connection still inside one. A `ROLLBACK` that does not answer within
    /// ``rollbackTimeout`` ends the same way.
    private func rollBack(_ executor: PostgresExecutor, on connection: PostgresConnection, after error: any Error) async {
        let gone: Bool
        switch error {
        case StoreError.unavailable: gone = true
        default: gone = connection.isClosed
        }
        if !gone {
            do {
                _ = try await withDeadline(Self.rollbackTimeout, "ROLLBACK") { try await executor.execute("ROLLBACK", []) }
                return
            } catch {
                logger.debug("ROLLBACK failed; closing the connection", metadata: ["error": "\(error)"])
            }
        }
        _ = try? await withDeadline(Self.rollbackTimeout, "closing a connection") { try await connection.close() }
    }

    static let rollbackTimeout = Duration.seconds(5)
    /// How long `close()` waits for the transactions in progress before stopping the pool.
    static let drainLimit = Duration.seconds(3)

    /// Leases a connection for `work`. Fails as unavailable when the server does not answer
    /// (asked after ``PostgresPool/suspectAfter`` of waiting; at most ``PostgresPool/downWait``
    /// while it is known to be down) or when a busy pool gives no connection within
    /// `leaseTimeout`. A lease still waiting when a fresh pool replaces the old one (the server
    /// came back) moves to it.
    func withLeasedConnection<T: Sendable>(
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let admitted = closed.withLock { isClosed in
            if !isClosed { leases.withLock { $0 += 1 } }
            return !isClosed
        }
        guard admitted else { throw StoreError.unavailable("database closed") }
        defer { leases.withLock { $0 -= 1 } }
        let started = ContinuousClock.now
        while true {
            let generation = pool.current
            let lease = Locked(LeaseState.waiting)
            do {
                // A structured group: `write` and `read` pass their body through
                // `withoutActuallyEscaping`, so no task may outlive this call.
                let outcome = try await withThrowingTaskGroup(of: LeaseOutcome<T>?.self) { group in
                    group.addTask {
                        .done(
                            try await generation.client.withConnection { connection in
                                // Once abandoned, never start: the caller has moved on.
                                try lease.withLock { state in
                                    guard state == .waiting else { throw CancellationError() }
                                    state = .leased
                                }
                                return try await work(connection)
                            })
                    }
                    group.addTask { try await self.watch(lease, on: generation, since: started) }
                    while let result = try await group.next() {
                        if let result {
                            group.cancelAll()
                            return result
                        }
                    }
                    throw StoreError.unavailable("connection lease ended without a result")
                }
                switch outcome {
                case .done(let value): return value
                case .moved: continue
                }
            } catch {
                throw PostgresErrors.map(error)
            }
        }
    }

    private enum LeaseState: Sendable, Equatable { case waiting, leased, abandoned }
    private enum LeaseOutcome<T: Sendable>: Sendable {
        case done(T)
        /// A fresh pool replaced the one this lease waited on: lease again there.
        case moved
    }

    /// Watches a waiting lease: `nil` once it has its connection, `.moved` when a fresh pool took
    /// over, a thrown `.unavailable` when the wait should end. Every ending but `nil` abandons the
    /// lease first, atomically, so work never starts after its caller stopped waiting.
    private func watch<T: Sendable>(
        _ lease: Locked<LeaseState>, on generation: PostgresPool.Generation, since started: ContinuousClock.Instant
    )
        async throws -> LeaseOutcome<T>?
    {
        func abandon() -> Bool {
            lease.withLock { state in
                guard state == .waiting else { return false }
                state = .abandoned
                return true
            }
        }
        var asked = false
        while true {
            try? await Task.sleep(for: .milliseconds(50))
            if Task.isCancelled || lease.withLock({ $0 != .waiting }) { return nil }
            if closed.withLock({ $0 }) {
                // Closing: a lease still waiting gives up now, while the pool can still take
                // its request back.
                if abandon() { throw StoreError.unavailable("database closed") }
                return nil
            }
            if pool.current.number != generation.number { return abandon() ? .moved : nil }
            let waited = ContinuousClock.now - started
            if pool.isDown {
                guard waited >= pool.downWait else { continue }
                if abandon() { throw StoreError.unavailable("PostgreSQL at \(url.displayName) is not answering") }
                return nil
            }
            if waited >= leaseTimeout {
                if abandon() { throw StoreError.unavailable("no database connection within \(leaseTimeout)") }
                return nil
            }
            if !asked && waited >= PostgresPool.suspectAfter {
                asked = true
                if !(await pool.serverAnswers()) { pool.markDown("a connection lease waited \(waited)") }
            }
        }
    }

    // MARK: Scripts, health, lifecycle

    /// Runs a script of one or more statements (split at `;` outside quotes and comments).
    ///
    /// The statements run in one transaction that first takes `pg_advisory_xact_lock(727000)`,
    /// so several instances starting at once apply `CREATE … IF NOT EXISTS` one after another
    /// (concurrent DDL on the same name otherwise fails on the catalog's unique index).
    /// A script that is one statement PostgreSQL refuses inside a transaction (`CREATE DATABASE`,
    /// `DROP DATABASE`, `VACUUM`, `… CONCURRENTLY`, `ALTER SYSTEM`) runs on its own.
    public func executeScript(_ sql: String) async throws {
        let statements = PostgresSQLText.split(sql)
        guard !statements.isEmpty else { return }
        if statements.count == 1, Self.mustRunOutsideTransaction(statements[0]) {
            _ = try await withLeasedConnection { connection in
                try await PostgresExecutor(connection: connection, logger: self.logger).execute(statements[0], [])
            }
            return
        }
        try await write { db in
            try await db.execute("SELECT pg_advisory_xact_lock(727000)", [])
            for statement in statements { try await db.execute(statement, []) }
        } as Void
    }

    static func mustRunOutsideTransaction(_ statement: String) -> Bool {
        let words = statement.uppercased().split(whereSeparator: { $0.isWhitespace }).prefix(4).map(String.init)
        let head = words.prefix(2).joined(separator: " ")
        return ["CREATE DATABASE", "DROP DATABASE", "ALTER SYSTEM", "CREATE TABLESPACE", "DROP TABLESPACE"].contains(head)
            || words.first == "VACUUM" || words.contains("CONCURRENTLY")
    }

    /// `SELECT 1` on a pooled connection, answering within 2 seconds.
    public func ping() async -> Bool {
        await ping(timeout: .seconds(2))
    }

    func ping(timeout: Duration) async -> Bool {
        do {
            return try await withDeadline(timeout, "ping") {
                try await self.withLeasedConnection { connection in
                    try await PostgresExecutor(connection: connection, logger: self.logger)
                        .query("SELECT 1 AS one", []).count == 1
                }
            }
        } catch {
            logger.debug("PostgreSQL ping failed", metadata: ["error": "\(error)"])
            return false
        }
    }

    /// Stops the listeners and the pool. Idempotent; later transactions fail as unavailable.
    public func close() async {
        let first = closed.withLock { wasClosed in
            defer { wasClosed = true }
            return !wasClosed
        }
        guard first else { return }
        let tasks = listeners.withLock { tasks in
            defer { tasks = [:] }
            return Array(tasks.values)
        }
        for task in tasks { task.cancel() }
        // The transactions in progress end first, with the pool still running: waiting ones
        // give up (see `watch`), running ones finish. Bounded, like everything below.
        let draining = ContinuousClock.now
        while leases.withLock({ $0 }) > 0, ContinuousClock.now - draining < Self.drainLimit {
            try? await Task.sleep(for: .milliseconds(10))
        }
        // Bounded: a LISTEN that does not end on cancellation, or a pool waiting for that
        // connection to come back, must not hold the caller (a whole test run stalled here).
        _ = try? await withDeadline(.seconds(3), "stopping the listeners") {
            for task in tasks { await task.value }
        }
        _ = try? await withDeadline(.seconds(5), "closing the connection pool") { await self.pool.close() }
    }

    private static func describe(_ error: any Error) -> String {
        switch PostgresErrors.map(error) {
        case let StoreError.unavailable(message), let StoreError.sql(message), let StoreError.constraint(message):
            return message
        case let other:
            return "\(other)"
        }
    }
}
