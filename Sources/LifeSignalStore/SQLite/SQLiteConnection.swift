import CSQLite
import Foundation

/// One connection to a SQLite file, with a cache of prepared statements.
///
/// Not thread-safe on its own: `SQLiteDatabase` hands each connection to one task at a time.
final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: Prepared] = [:]
    private var closed = false

    /// A cached statement and its column names (read once, shared by every row it returns).
    private struct Prepared {
        let statement: OpaquePointer
        let columns: [String]
    }

    // SQLITE_TRANSIENT: SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Process-wide settings, applied once before the first connection opens.
    private static let configured: Void = {
        _ = lifesignal_sqlite_disable_memstatus()
    }()

    init(path: String, readOnly: Bool) throws {
        _ = Self.configured
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw StoreError.unavailable("cannot open \(path): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    /// Finalizes its statements and closes the connection (the last one to close a WAL file
    /// checkpoints it and removes it); nothing may use it afterwards. Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        for prepared in statements.values { sqlite3_finalize(prepared.statement) }
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without binds (pragmas, DDL, BEGIN/COMMIT).
    func run(_ script: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, script, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "code \(rc)"
            sqlite3_free(error)
            throw Self.error(code: rc, message: message)
        }
    }

    /// Reports the WAL size (in frames) to `checkpointer` after every commit, in place of
    /// SQLite's automatic checkpoint. `nil` restores the automatic one.
    func setCheckpointer(_ checkpointer: SQLiteCheckpointer?) {
        guard !closed else { return }
        guard let checkpointer else {
            sqlite3_wal_autocheckpoint(handle, 1000)
            return
        }
        sqlite3_wal_hook(
            handle,
            { context, db, _, frames in
                Unmanaged<SQLiteCheckpointer>.fromOpaque(context!).takeUnretainedValue().walSize(frames, writer: db)
                return SQLITE_OK
            },
            Unmanaged.passUnretained(checkpointer).toOpaque())
    }

    /// True outside a transaction: after COMMIT or ROLLBACK, or when an error ended one.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    func execute(_ sql: String, _ binds: [SQLValue]) throws -> Int {
        let statement = try prepare(sql, binds).statement
        defer { sqlite3_reset(statement) }
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            if rc != SQLITE_ROW { throw lastError(rc) }
        }
        return Int(sqlite3_changes(handle))
    }

    func query(_ sql: String, _ binds: [SQLValue]) throws -> [SQLRow] {
        let prepared = try prepare(sql, binds)
        let statement = prepared.statement
        defer { sqlite3_reset(statement) }
        var columns = prepared.columns
        var rows: [SQLRow] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw lastError(rc) }
            let count = sqlite3_column_count(statement)
            if rows.isEmpty, count != columns.count {
                // The schema changed under a cached `SELECT *`: SQLite re-prepared it at this
                // step, so the names are read again now (before the step they are the old ones).
                columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
                statements[sql] = Prepared(statement: statement, columns: columns)
            }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for index in 0..<count { values.append(column(statement, index)) }
            rows.append(SQLRow(columns: columns, values: values))
        }
        return rows
    }

    private func prepare(_ sql: String, _ binds: [SQLValue]) throws -> Prepared {
        let entry: Prepared
        if let cached = statements[sql] {
            entry = cached
            sqlite3_clear_bindings(entry.statement)
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard rc == SQLITE_OK, let prepared else { throw lastError(rc) }
            let columns = (0..<sqlite3_column_count(prepared)).map { String(cString: sqlite3_column_name(prepared, $0)) }
            entry = Prepared(statement: prepared, columns: columns)
            statements[sql] = entry
        }
        let statement = entry.statement
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == binds.count else {
            throw StoreError.sql("statement expects \(expected) values, got \(binds.count): \(sql)")
        }
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case let .integer(v): rc = sqlite3_bind_int64(statement, index, v)
            case let .real(v): rc = sqlite3_bind_double(statement, index, v)
            case let .text(v): rc = sqlite3_bind_text(statement, index, v, -1, Self.transient)
            case let .blob(v):
                rc = v.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient)
                }
            }
            if rc != SQLITE_OK { throw lastError(rc) }
        }
        return entry
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func lastError(_ rc: Int32) -> StoreError {
        Self.error(code: rc, message: String(cString: sqlite3_errmsg(handle)))
    }

    private static func error(code: Int32, message: String) -> StoreError {
        switch code & 0xFF {
        case SQLITE_CONSTRAINT: .constraint(message)
        case SQLITE_FULL: .full(message)
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN, SQLITE_IOERR: .unavailable(message)
        default: .sql(message)
        }
    }
}
