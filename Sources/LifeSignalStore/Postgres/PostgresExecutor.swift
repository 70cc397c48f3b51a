import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Runs statements on one leased connection, inside the transaction `PostgresDatabase` opened.
///
/// A statement that recurs runs as a named prepared statement (parsed and planned once per
/// connection, see `PostgresStatements` below); others run unnamed.
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

/// Named prepared statements, parsed and planned once per connection instead of on every run.
///
/// postgres-nio sends a statement given as text unnamed: PostgreSQL parses, analyses and plans
/// it on every execution. Its named statements (`PostgresPreparedStatement`) take their name
/// and text from the statement's *type*, so this file keeps a fixed set of 256 types
/// (`NamedRows<High, Low>`, two hex digits) and gives each statement that answers rows and
/// recurs a slot:
/// the slot's type answers that text for as long as the process runs. A statement is named
/// when it has been seen twice (a one-off text stays unnamed), binds at most
/// `maximumBinds` values, and a slot is free; everything else runs unnamed, as before.
///
/// The key of a slot is the text plus the kinds of its values (`null` included), so every
/// execution under one name binds the types it was prepared with.
///
/// postgres-nio remembers a failed preparation on the connection and fails every later use of
/// that name there; `PostgresStatementUse` therefore runs a slot unnamed on a connection where
/// its first named run failed (for instance inside a transaction already aborted).
enum PostgresStatements {
    static let capacity = 256
    static let maximumBinds = 512

    private struct Registry {
        /// By key: the slot, or -1 for a statement that always runs unnamed.
        var entries: [String: Int] = [:]
        var texts: [String] = []
        var shapes: [Shape] = []
        /// Keys seen once.
        var seen: Set<String> = []
    }

    private static let registry = Mutex(Registry())

    /// The slot of a statement (`text` already numbered `$1…`) and how its result is read, or
    /// nil to run it unnamed.
    static func slot(text: String, binds: [SQLValue]) -> (index: Int, shape: Shape)? {
        guard binds.count <= maximumBinds else { return nil }
        var key = text
        key.reserveCapacity(text.utf8.count + binds.count + 1)
        key.append("\u{1}")
        for value in binds {
            switch value {
            case .null: key.append("n")
            case .integer: key.append("i")
            case .real: key.append("r")
            case .text: key.append("t")
            case .blob: key.append("b")
            }
        }
        return registry.withLock { registry -> (index: Int, shape: Shape)? in
            if let index = registry.entries[key] { return index < 0 ? nil : (index, registry.shapes[index]) }
            guard registry.entries.count < 20_000 else { return nil }
            let shape = PostgresStatements.shape(of: text)
            if shape == .unnamed || registry.texts.count >= capacity {
                registry.entries[key] = -1
                return nil
            }
            // Named from the second sighting on.
            guard registry.seen.remove(key) != nil else {
                if registry.seen.count >= 20_000 { registry.seen.removeAll() }
                registry.seen.insert(key)
                return nil
            }
            registry.texts.append(text)
            registry.shapes.append(shape)
            registry.entries[key] = registry.texts.count - 1
            return (registry.texts.count - 1, shape)
        }
    }

    static func text(of slot: Int) -> String {
        registry.withLock { $0.texts[slot] }
    }

    /// How a statement's result is read when it runs named.
    enum Shape {
        /// `INSERT`, `UPDATE` or `DELETE` without `RETURNING`: no rows, the command tag counts
        /// (`PostgresExecutor.execute` adds `RETURNING 1`, so they run named as rows).
        case command
        /// Anything that may answer rows (`SELECT`, `WITH`, `… RETURNING`): the rows.
        case rows
        /// Everything else (`BEGIN`, DDL, `SET`…): runs unnamed.
        case unnamed
    }

    static func shape(of text: String) -> Shape {
        var start = text.startIndex
        while start < text.endIndex, text[start].isWhitespace || text[start] == "(" { start = text.index(after: start) }
        let word = text[start...].prefix(while: { $0.isLetter }).uppercased()
        switch word {
        case "SELECT", "WITH", "VALUES":
            return .rows
        case "INSERT", "UPDATE", "DELETE":
            return text.range(of: "RETURNING", options: .caseInsensitive) == nil ? .command : .rows
        default:
            return .unnamed
        }
    }

    // MARK: The statement types

    protocol Digit { static var value: Int { get } }
    enum D0: Digit { static let value = 0 }
    enum D1: Digit { static let value = 1 }
    enum D2: Digit { static let value = 2 }
    enum D3: Digit { static let value = 3 }
    enum D4: Digit { static let value = 4 }
    enum D5: Digit { static let value = 5 }
    enum D6: Digit { static let value = 6 }
    enum D7: Digit { static let value = 7 }
    enum D8: Digit { static let value = 8 }
    enum D9: Digit { static let value = 9 }
    enum DA: Digit { static let value = 10 }
    enum DB: Digit { static let value = 11 }
    enum DC: Digit { static let value = 12 }
    enum DD: Digit { static let value = 13 }
    enum DE: Digit { static let value = 14 }
    enum DF: Digit { static let value = 15 }

    protocol RowsStatement: PostgresPreparedStatement where Row == PostgresRow {
        init(bindings: PostgresBindings)
    }

    struct NamedRows<High: Digit, Low: Digit>: RowsStatement {
        static var name: String { "lifesignal_\(High.value * 16 + Low.value)" }
        static var sql: String { PostgresStatements.text(of: High.value * 16 + Low.value) }
        let bindings: PostgresBindings
        init(bindings: PostgresBindings) { self.bindings = bindings }
        func makeBindings() -> PostgresBindings { bindings }
        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    private static func type<H: Digit, L: Digit>(_: H.Type, _: L.Type) -> any RowsStatement.Type {
        NamedRows<H, L>.self
    }

    /// The statement type of each slot, by slot.
    private static let table: [any RowsStatement.Type] = {
        let digits: [any Digit.Type] = [
            D0.self, D1.self, D2.self, D3.self, D4.self, D5.self, D6.self, D7.self,
            D8.self, D9.self, DA.self, DB.self, DC.self, DD.self, DE.self, DF.self,
        ]
        var table: [any RowsStatement.Type] = []
        for high in digits {
            for low in digits { table.append(type(high, low)) }
        }
        return table
    }()

    /// Runs slot `slot` named and collects its rows.
    static func rows(
        _ slot: Int, _ bindings: PostgresBindings, on connection: PostgresConnection, logger: Logger
    ) async throws -> [PostgresRow] {
        try await rows(table[slot], bindings, on: connection, logger: logger)
    }

    private static func rows<S: RowsStatement>(
        _: S.Type, _ bindings: PostgresBindings, on connection: PostgresConnection, logger: Logger
    ) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await connection.execute(S(bindings: bindings), logger: logger) { rows.append(row) }
        return rows
    }
}

/// Which slots each connection of one pool has run named, and where that failed (then they run
/// unnamed there). Keyed by the pool's connection id; a connection serves one transaction at a
/// time.
final class PostgresStatementUse: Sendable {
    enum Standing {
        /// Ran named on this connection before.
        case prepared
        /// Not run named here yet: this run prepares it.
        case untried
        /// Its first named run here failed: it runs unnamed here.
        case broken
    }

    private struct Slots {
        var prepared: Set<Int> = []
        var broken: Set<Int> = []
    }

    private let connections = Mutex<[PostgresConnection.ID: Slots]>([:])

    func standing(_ slot: Int, on connection: PostgresConnection.ID) -> Standing {
        connections.withLock { state in
            guard let slots = state[connection] else { return .untried }
            if slots.prepared.contains(slot) { return .prepared }
            return slots.broken.contains(slot) ? .broken : .untried
        }
    }

    /// The first named run of `slot` on `connection` ended. When it failed, its preparation may
    /// be what failed, and postgres-nio would fail every later use of the name there.
    func firstRun(_ slot: Int, on connection: PostgresConnection.ID, succeeded: Bool) {
        connections.withLock { state in
            if succeeded {
                state[connection, default: Slots()].prepared.insert(slot)
            } else {
                state[connection, default: Slots()].broken.insert(slot)
            }
        }
    }
}
