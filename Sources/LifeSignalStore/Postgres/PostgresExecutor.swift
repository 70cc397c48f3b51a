import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Runs statements on one leased connection, inside the transaction `PostgresDatabase` opened.
///
/// A statement that recurs runs as a named prepared statement (parsed and planned once per
/// connection, see `PostgresStatements`); others run unnamed.
///
/// Statements use `?` placeholders (see `PostgresSQLText`); values bind with fixed types:
/// integer → `int8`, real → `float8`, text → `text`, blob → `bytea`, and null untyped, so
/// PostgreSQL infers its type from where it stands (a null typed `int8` could not go into
/// a `text` column).
struct PostgresExecutor: SQLExecutor {
    let connection: PostgresConnection
    let logger: Logger
    /// Where named statements failed on this pool's connections; nil runs every statement unnamed.
    var statements: PostgresStatementUse? = nil
    /// `check_in_statement` of the URL.
    var writesCheckInAsOneStatement = false
    var dialect: SQLDialect { .postgres }

    func execute(_ sql: String, _ binds: [SQLValue]) async throws -> Int {
        var query = try Self.makeQuery(sql, binds)
        // A command's count is in its command tag, which postgres-nio's named execution does
        // not hand back safely (its `Row == ()` overload traps on a tag read before the stream
        // ends). So a command answers one `1` per row it inserted, changed or deleted, and
        // runs named like any statement that answers rows: the rows counted are the tag's count.
        if PostgresStatements.shape(of: query.sql) == .command { query.sql += " RETURNING 1" }
        if let slot = namedSlot(query.sql, binds), slot.shape == .rows {
            return try await runNamed(slot, sql) {
                try await PostgresStatements.rows($0, query.binds, on: connection, logger: logger).count
            }
        }
        return try await run(query, sql).metadata.rows ?? 0
    }

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let query = try Self.makeQuery(sql, binds)
        let rows: [PostgresRow]
        if let slot = namedSlot(query.sql, binds), slot.shape == .rows {
            rows = try await runNamed(slot, sql) {
                try await PostgresStatements.rows($0, query.binds, on: connection, logger: logger)
            }
        } else {
            rows = try await run(query, sql).rows
        }
        guard let first = rows.first else { return [] }
        let columns = first.map(\.columnName)
        return try rows.map { row in
            SQLRow(columns: columns, values: try row.map(Self.value))
        }
    }

    /// The statement's named slot, when it runs named on this connection; nil to run it unnamed.
    private func namedSlot(_ text: String, _ binds: [SQLValue]) -> NamedSlot? {
        guard let statements, let slot = PostgresStatements.slot(text: text, binds: binds) else { return nil }
        let standing = statements.standing(slot.index, on: connection.id)
        return standing == .broken ? nil : NamedSlot(index: slot.index, shape: slot.shape, firstRun: standing == .untried)
    }

    private struct NamedSlot {
        var index: Int
        var shape: PostgresStatements.Shape
        var firstRun: Bool
    }

    private func runNamed<T>(_ slot: NamedSlot, _ sql: String, _ body: (Int) async throws -> T) async throws -> T {
        do {
            let result = try await body(slot.index)
            if slot.firstRun { statements?.firstRun(slot.index, on: connection.id, succeeded: true) }
            return result
        } catch {
            if slot.firstRun { statements?.firstRun(slot.index, on: connection.id, succeeded: false) }
            throw PostgresErrors.map(error, sql: sql)
        }
    }

    private func run(_ query: PostgresQuery, _ sql: String) async throws -> PostgresQueryResult {
        do {
            // The future-returning overload collects the rows and the command tag (row count).
            let future: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
            return try await future.get()
        } catch {
            throw PostgresErrors.map(error, sql: sql)
        }
    }

    static func makeQuery(_ sql: String, _ binds: [SQLValue]) throws -> PostgresQuery {
        let (text, count) = PostgresSQLText.numbered(sql)
        guard count == binds.count else {
            throw StoreError.sql("statement expects \(count) values, got \(binds.count): \(sql)")
        }
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .null: bindings.appendNull()
            case let .integer(v): bindings.append(v)
            case let .real(v): bindings.append(v)
            case let .text(v): bindings.append(v)
            case let .blob(v): bindings.append(ByteBuffer(bytes: v))
            }
        }
        return PostgresQuery(unsafeSQL: text, binds: bindings)
    }

    /// Maps one cell to the five kinds both stores agree on.
    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard var bytes = cell.bytes else { return .null }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8:
                return .integer(try cell.decode(Int64.self))
            case .float4, .float8:
                return .real(try cell.decode(Double.self))
            case .numeric:
                // SUM(bigint) and friends answer numeric: keep integers integral.
                let text = try cell.decode(Decimal.self).description
                if let integer = Int64(text) { return .integer(integer) }
                return .real(Double(text) ?? .nan)
            case .bool:
                return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .uuid:
                return .text(try cell.decode(UUID.self).uuidString.lowercased())
            case .bytea:
                return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
            case .timestamp, .timestamptz, .date:
                return .integer(try cell.decode(Date.self).milliseconds)
            case .void:
                return .null
            case .text, .varchar, .bpchar, .name, .json, .jsonb, .unknown:
                return .text(try cell.decode(String.self))
            default:
                if cell.format == .text { return .text(try cell.decode(String.self)) }
                return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.decoding("column \(cell.columnName) of type \(cell.dataType): \(error)")
        }
    }
}

/// Maps driver errors to `StoreError`. Messages keep the server's text (for the log); the
/// service never shows them to a person.
enum PostgresErrors {
    static func map(_ error: any Error, sql: String? = nil) -> any Error {
        switch error {
        case is StoreError, is CancellationError:
            return error
        case let error as PostgresTransactionError:
            if let inner = error.closureError { return map(inner, sql: sql) }
            if let inner = error.beginError { return map(inner, sql: sql) }
            if let inner = error.commitError { return map(inner, sql: sql) }
            if let inner = error.rollbackError { return map(inner, sql: sql) }
            return StoreError.sql("transaction failed")
        case let error as PSQLError:
            return map(error, sql: sql)
        case is ChannelError, is IOError, is NIOConnectionError:
            return StoreError.unavailable(String(describing: error))
        default:
            // The pool's own errors (e.g. its circuit breaker) mean no connection; anything
            // else (a transaction body's own error) passes through unchanged.
            if String(reflecting: type(of: error)).contains("ConnectionPool") {
                return StoreError.unavailable(String(describing: error))
            }
            return error
        }
    }

    private static func map(_ error: PSQLError, sql: String?) -> StoreError {
        if error.code == .server, let info = error.serverInfo {
            let state = info[.sqlState] ?? ""
            var message = info[.message] ?? "server error"
            if let detail = info[.detail] { message += " (\(detail))" }
            if let constraint = info[.constraintName] { message += " [\(constraint)]" }
            message += " SQLSTATE \(state)"
            switch state {
            case _ where state.hasPrefix("23"):
                // integrity_constraint_violation: unique, foreign key, check, not null, exclusion.
                return .constraint(message)
            case "53100":
                // disk_full: storage, not reachability, is the problem.
                return .full(message)
            case _ where state.hasPrefix("08"), _ where state.hasPrefix("28"), _ where state.hasPrefix("53"),
                "57P01", "57P02", "57P03", "3D000", "57014":
                // connection, authentication, resources, shutdown, unknown database, timeout.
                return .unavailable(message)
            default:
                return .sql(sql.map { "\(message): \($0)" } ?? message)
            }
        }
        switch error.code {
        case .tooManyParameters, .invalidCommandTag, .unexpectedBackendMessage, .messageDecodingFailure:
            return .sql("\(error.code)")
        default:
            let underlying = error.underlying.map { ": \($0)" } ?? ""
            return .unavailable("\(error.code)\(underlying)")
        }
    }

    /// The SQLSTATE of a server error, when `error` is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }
}
