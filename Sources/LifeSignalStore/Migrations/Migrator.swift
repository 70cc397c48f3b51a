import Foundation

/// Brings a database to the newest schema, one migration per transaction.
public enum Migrator {
    public static func migrate(_ database: any SQLDatabase, migrations: [Migration] = Migration.all) async throws {
        try await database.executeScript(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """)
        // Read first: opening an up-to-date database (every start but the first) then never
        // waits for the write lock, which a busy instance sharing the file may hold.
        let applied = try await database.read { db in
            Set(try await db.query("SELECT version FROM schema_migrations", []).map { try $0.int("version") })
        }
        for migration in migrations.sorted(by: { $0.version < $1.version }) where !applied.contains(migration.version) {
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
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    migration.version, migration.name, Date().milliseconds)
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
