import Foundation

/// Which SQL the database speaks, for the few places where the two differ.
public enum SQLDialect: String, Sendable {
    case sqlite, postgres
}

/// Runs statements inside one transaction (or one read snapshot).
///
/// Statements are written once with `?` placeholders; the PostgreSQL executor numbers them.
public protocol SQLExecutor: Sendable {
    var dialect: SQLDialect { get }
    /// Runs a statement; returns the number of rows it changed.
    @discardableResult
    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> Int
    /// Runs a query and returns every row.
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]
    /// Whether a check-in's writes and the reads after them go as one statement
    /// (`StoreTransaction.CheckIns.record(_:…)`): PostgreSQL, unless its URL says otherwise.
    var writesCheckInAsOneStatement: Bool { get }
}

extension SQLExecutor {
    public var writesCheckInAsOneStatement: Bool { false }

    @discardableResult
    public func execute(_ sql: String, _ binds: any SQLBindable...) async throws -> Int {
        try await execute(sql, binds.map(\.sqlValue))
    }

    public func query(_ sql: String, _ binds: any SQLBindable...) async throws -> [SQLRow] {
        try await query(sql, binds.map(\.sqlValue))
    }

    public func queryFirst(_ sql: String, _ binds: any SQLBindable...) async throws -> SQLRow? {
        try await query(sql, binds.map(\.sqlValue)).first
    }
}

/// A database that runs work in transactions: SQLite (embedded) or PostgreSQL.
public protocol SQLDatabase: Sendable {
    var dialect: SQLDialect { get }
    /// Runs `body` in one write transaction: all of it commits, or none of it.
    func write<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T
    /// Runs `body` against a consistent read snapshot.
    func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T
    /// Runs `body`, which runs exactly one read statement, outside an explicit transaction:
    /// a single statement sees one consistent snapshot by itself, so the `BEGIN` and `COMMIT`
    /// would only add round trips. Internal to the store, for its hottest single reads.
    func readStatement<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T
    /// Runs a statement outside a transaction (DDL in migrations, pragmas).
    func executeScript(_ sql: String) async throws
    /// Answers whether the database can be reached right now.
    func ping() async -> Bool
    func close() async
}
