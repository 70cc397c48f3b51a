import Foundation

/// Moves an install from its SQLite file to PostgreSQL (`lifesignal migrate-data`): every row
/// of every table, ids, hashes and timeline heads as they are, into an empty database of the
/// same schema version, in one transaction on the target — a copy that fails leaves the
/// target as empty as it was, so it can simply be run again.
public enum DataCopy {
    /// One table copied, and how many rows it holds on both sides.
    public struct Table: Sendable, Equatable {
        public var name: String
        public var rows: Int
    }

    /// Copies everything from `source` (a SQLite store) into `target` (an empty store, both
    /// migrated to the same version). `progress` is told each table as it is done.
    @discardableResult
    public static func copy(
        from source: Store, to target: Store, batchRows: Int = 1_000,
        progress: @Sendable (Table) -> Void = { _ in }
    ) async throws -> [Table] {
        guard source.database.dialect == .sqlite else {
            throw StoreError.sql("The data is copied from a SQLite file: give --from the path of one.")
        }
        let (from, to) = (try await Migrator.currentVersion(source.database), try await Migrator.currentVersion(target.database))
        guard from == to else {
            throw StoreError.sql(
                "The two databases are at different schema versions (\(from) and \(to)): open both with this version of lifesignal first.")
        }
        // Creation order, which is an order the foreign keys accept.
        let tables = try await source.database.read { db in
            try await db.query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY rowid",
                []
            ).map { try $0.string("name") }
        }
        for table in tables {
            let used = try await target.database.read { try await $0.queryFirst("SELECT 1 AS n FROM \(table) LIMIT 1") } != nil
            if used {
                throw StoreError.constraint("The target database already holds data (table \(table)): copy into an empty database.")
            }
        }
        return try await target.database.write { db in
            var copied: [Table] = []
            for table in tables {
                var rows = 0
                var next: Int64 = 0
                while true {
                    let after = next
                    let batch = try await source.database.read { source in
                        try await source.query(
                            "SELECT rowid AS ls_copy_rowid, * FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT ?",
                            [.integer(after), .integer(Int64(batchRows))])
                    }
                    guard let last = batch.last else { break }
                    next = try last.int64("ls_copy_rowid")
                    try await insert(batch, into: table, db: db)
                    rows += batch.count
                }
                let stored = try await db.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.int("n") ?? -1
                guard stored == rows else {
                    throw StoreError.sql("Table \(table): \(rows) rows read but \(stored) stored; nothing was copied.")
                }
                copied.append(Table(name: table, rows: rows))
                progress(Table(name: table, rows: rows))
            }
            return copied
        }
    }

    /// Many rows per INSERT, under PostgreSQL's 65,535 binds per statement.
    private static func insert(_ rows: [SQLRow], into table: String, db: any SQLExecutor) async throws {
        let columns = rows[0].columns.filter { $0 != "ls_copy_rowid" }
        let perStatement = max(1, 30_000 / max(1, columns.count))
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var start = rows.startIndex
        while start < rows.endIndex {
            let chunk = rows[start..<min(start + perStatement, rows.endIndex)]
            let sql =
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                + Array(repeating: tuple, count: chunk.count).joined(separator: ", ")
            _ = try await db.execute(sql, chunk.flatMap { row in columns.map { row[$0] } })
            start += chunk.count
        }
    }
}
