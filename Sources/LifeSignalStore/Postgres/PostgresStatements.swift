import Foundation
import Logging
import PostgresNIO
import Synchronization

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
