import Foundation
import Logging

/// PostgreSQL store (being written: see the PostgreSQL issue).
public final class PostgresDatabase: SQLDatabase {
    public let dialect = SQLDialect.postgres

    public static func connect(url: String, logger: Logger?) async throws -> PostgresDatabase {
        throw StoreError.unavailable("PostgreSQL support is not built yet")
    }

    public func write<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        throw StoreError.unavailable("PostgreSQL support is not built yet")
    }

    public func read<T: Sendable>(_ body: @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        throw StoreError.unavailable("PostgreSQL support is not built yet")
    }

    public func executeScript(_ sql: String) async throws {}
    public func ping() async -> Bool { false }
    public func close() async {}
}
