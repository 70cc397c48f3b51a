import Foundation

/// Brings a database to the newest schema, one migration per transaction.
public enum Migrator {
    public static func migrate(_ database: any SQLDatabase, migrations: [Migration] = Migration.all) async throws {
        try await database.executeScript(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL,
                checksum TEXT
            )
            """)
        // Read first: opening an up-to-date database (every start but the first) then never
        // waits for the write lock, which a busy instance sharing the file may hold.
        var applied = try await appliedChecksums(database)
        if applied == nil {
            // A database from before checksums: its table gains the column, filled below.
            // Another instance (or another handle on the SQLite file) starting at once may have
            // added it already: PostgreSQL says IF NOT EXISTS, SQLite has no such clause.
            do {
                try await database.executeScript(
                    "ALTER TABLE schema_migrations ADD COLUMN \(database.dialect == .postgres ? "IF NOT EXISTS " : "")checksum TEXT")
            } catch StoreError.sql(let message) where message.contains("duplicate column") {}
            applied = try await appliedChecksums(database)
        }
        try await check(applied ?? [:], against: migrations, dialect: database.dialect, database: database)
        for migration in migrations.sorted(by: { $0.version < $1.version }) where applied?[migration.version] == nil {
            try await database.write { db in
                if database.dialect == .postgres {
                    // Several instances may start at once: one migrates, the others wait here.
                    try await db.execute("SELECT pg_advisory_xact_lock(727001)", [])
                }
                let done = try await db.queryFirst(
                    "SELECT version FROM schema_migrations WHERE version = ?", migration.version)
                guard done == nil else { return }
                for statement in splitStatements(migration.sql(for: database.dialect)) {
                    try await db.execute(statement, [])
                }
                try await db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at, checksum) VALUES (?, ?, ?, ?)",
                    migration.version, migration.name, Date().milliseconds, migration.checksum(for: database.dialect))
            }
        }
    }

    /// Each applied version with the checksum stored for it ("" when it was applied before
    /// checksums were kept); nil when the table has no checksum column yet.
    static func appliedChecksums(_ database: any SQLDatabase) async throws -> [Int: String]? {
        do {
            return try await database.read { db in
                var applied: [Int: String] = [:]
                for row in try await db.query("SELECT version, checksum FROM schema_migrations", []) {
                    applied[try row.int("version")] = try row.optionalString("checksum") ?? ""
                }
                return applied
            }
        } catch StoreError.sql(let message) where Self.isMissingChecksumColumn(message) {
            return nil
        }
    }

    /// SQLite's "no such column: checksum"; PostgreSQL's 42703, `column "checksum" does not exist`.
    static func isMissingChecksumColumn(_ message: String) -> Bool {
        message.contains("no such column: checksum") || message.contains("column \"checksum\" does not exist")
    }

    /// Refuses a database on which a migration of the list was applied with another text: a
    /// released migration was edited, and this database's schema is not the one the code
    /// expects. Versions applied before checksums were kept get theirs now (trusted once).
    static func check(
        _ applied: [Int: String], against migrations: [Migration], dialect: SQLDialect, database: any SQLDatabase
    ) async throws {
        var unrecorded: [Migration] = []
        for migration in migrations {
            guard let stored = applied[migration.version] else { continue }
            if stored.isEmpty {
                unrecorded.append(migration)
            } else if stored != migration.checksum(for: dialect) {
                throw StoreError.sql(
                    "migration \(migration.version) (\(migration.name)) was changed after it was applied to this database; "
                        + "a released migration never changes: add a new one instead")
            }
        }
        guard !unrecorded.isEmpty else { return }
        try await database.write { [unrecorded] db in
            for migration in unrecorded {
                try await db.execute(
                    "UPDATE schema_migrations SET checksum = ? WHERE version = ? AND checksum IS NULL",
                    migration.checksum(for: dialect), migration.version)
            }
        }
    }

    /// The newest version applied, or 0 for an empty database.
    public static func currentVersion(_ database: any SQLDatabase) async throws -> Int {
        try await database.read { db in
            try await db.queryFirst("SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations")?.int("v") ?? 0
        }
    }

    /// Splits a migration script on semicolons at line ends (the scripts hold no procedural code).
    static func splitStatements(_ script: String) -> [String] {
        script.components(separatedBy: ";\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 }
            .filter { !$0.isEmpty }
    }
}
