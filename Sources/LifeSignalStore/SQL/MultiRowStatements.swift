import Foundation

extension StoreTransaction {
    /// Row counts a multi-row statement is written for. Each count is one fixed statement
    /// text, so every size stays prepared; any number of rows takes at most a few statements.
    static let rowGroups = [64, 16, 4, 1]

    /// Runs `prefix (row), (row), … suffix` over `rows`, as few rows per statement as the
    /// group sizes allow, and returns what the statements return (`RETURNING` rows).
    ///
    /// Written once per transaction step instead of once per row: on both databases the
    /// per-statement cost (binding, stepping, the round trip on PostgreSQL) is paid per group.
    @discardableResult
    func multiRow(_ prefix: String, row: String, suffix: String = "", _ rows: [[SQLValue]]) async throws -> [SQLRow] {
        var returned: [SQLRow] = []
        var index = 0
        for group in Self.rowGroups where rows.count - index >= group {
            let sql = prefix + Array(repeating: row, count: group).joined(separator: ", ") + suffix
            while rows.count - index >= group {
                returned += try await db.query(sql, rows[index..<(index + group)].flatMap { $0 })
                index += group
            }
        }
        return returned
    }

    /// The most rows one claim takes (engine people, incidents, deliveries): a claimed list is
    /// bound as an `IN` list, padded up to twice its size, which must stay under SQLite's
    /// 32,766 binds.
    static let maxClaim = 4096

    /// An `IN (…)` list for `values`, and its binds. The list is padded to a power of two by
    /// repeating the last value (which changes nothing an `IN` matches), so a query over any
    /// number of values has one of a few statement texts and the prepared-statement cache stays small.
    static func inList(_ values: [some SQLBindable]) -> (sql: String, binds: [SQLValue]) {
        guard let last = values.last?.sqlValue else { return ("(NULL)", []) }
        var size = 1
        while size < values.count { size *= 2 }
        let binds = values.map(\.sqlValue) + Array(repeating: last, count: size - values.count)
        return ("(" + Array(repeating: "?", count: size).joined(separator: ", ") + ")", binds)
    }
}
