import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for migrations apply once, values round-trip: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: migrations and values", .timeLimit(.minutes(2)))
struct StoreMigrationTests {
    // MARK: Migrations

    /// `first` and three more handles on its database migrating at once, as instances starting
    /// together do.
    static func migrateFromFourHandles(_ first: any SQLDatabase, _ test: TestDatabase) async throws {
        var handles: [any SQLDatabase] = [first]
        for _ in 0..<3 { handles.append(try await test.open()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for handle in handles { group.addTask { try await Migrator.migrate(handle) } }
            try await group.waitForAll()
        }
        for handle in handles.dropFirst() { await handle.close() }
    }

    static func expectEveryChecksumStored(_ database: any SQLDatabase) async throws {
        let stored = try await database.read {
            try await $0.queryFirst("SELECT COUNT(*) AS n FROM schema_migrations WHERE checksum IS NOT NULL")?.int("n")
        }
        #expect(stored == Migration.all.count)
    }

    /// The database stands at the newest version, with one row per migration in the list.
    static func expectEveryMigrationAppliedOnce(_ database: any SQLDatabase) async throws {
        #expect(try await Migrator.currentVersion(database) == Migration.all.map(\.version).max())
        let applied = try await database.read {
            try await $0.queryFirst("SELECT COUNT(*) AS n FROM schema_migrations")?.int("n")
        }
        #expect(applied == Migration.all.count)
    }

    @Test("migrations apply from empty, idempotently", arguments: Backend.all)
    func migrationsFromEmpty(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database)
            let newest = try #require(Migration.all.map(\.version).max())
            #expect(try await Migrator.currentVersion(database) == newest)
            // Every table of the schema exists and is empty.
            for table in [
                "users", "sessions", "sign_in_codes", "rate_limits", "check_ins", "links", "pings",
                "incidents", "incident_recipients", "notifications", "channels", "deliveries",
                "timeline", "engine_heartbeats", "instances",
            ] {
                let count = try await database.read { try await $0.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.int("n") }
                #expect(count == 0, "table \(table)")
            }
            // Running again changes nothing.
            try await Migrator.migrate(database)
            try await Self.expectEveryMigrationAppliedOnce(database)
        }
    }

    @Test("a later migration applies once, in its own transaction", arguments: Backend.all)
    func laterMigration(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database)
            let next = (Migration.all.map(\.version).max() ?? 0) + 1
            let extra = Migration(
                version: next, name: "test_extra",
                sqlite: "CREATE TABLE test_extra (id TEXT PRIMARY KEY);\nCREATE INDEX test_extra_id ON test_extra (id);",
                postgres: "CREATE TABLE test_extra (id TEXT PRIMARY KEY);\nCREATE INDEX test_extra_id ON test_extra (id);")
            try await Migrator.migrate(database, migrations: Migration.all + [extra])
            try await Migrator.migrate(database, migrations: Migration.all + [extra])
            #expect(try await Migrator.currentVersion(database) == next)
            // A broken migration rolls back entirely and leaves the version where it was.
            let broken = Migration(
                version: next + 1, name: "broken",
                sqlite: "CREATE TABLE half (id TEXT);\nCREATE TABLE half (id TEXT);",
                postgres: "CREATE TABLE half (id TEXT);\nCREATE TABLE half (id TEXT);")
            await #expect(throws: StoreError.self) {
                try await Migrator.migrate(database, migrations: Migration.all + [extra, broken])
            }
            #expect(try await Migrator.currentVersion(database) == next)
            await #expect(throws: StoreError.self) {
                _ = try await database.read { try await $0.query("SELECT * FROM half", []) }
            }
        }
    }

    /// A migration's version is its place in the list, so the list is pinned: one inserted or
    /// moved would renumber every migration after it on databases that already ran them.
    @Test("the list is append-only: every released migration keeps its place")
    func theListKeepsItsOrder() {
        let released = [
            "initial", "contact_requests", "retention", "webhook_secrets", "person_time_zone", "watch_only", "text_replies",
            "safe_replies", "timeline_seal", "instances", "person_language", "fallback_next", "sealed_details", "ladders",
            "daily_calls", "daily_call_setups", "call_in_pin", "device_links", "daily_times", "plans", "added_time",
            "quiet_hours", "pauses", "location", "plan_check_ins", "delivery_pace_rank",
            "overdue_first",
        ]
        #expect(Array(Migration.all.map(\.name).prefix(released.count)) == released)
        #expect(Migration.all.map(\.version) == Array(1...Migration.all.count))
        #expect(Set(Migration.all.map(\.name)).count == Migration.all.count)
    }

    @Test("several instances upgrading a table from before checksums all start", arguments: Backend.all)
    func concurrentChecksumUpgrade(_ backend: Backend) async throws {
        try await withDatabase(backend) { first, test in
            try await Migrator.migrate(first)
            try await first.executeScript("ALTER TABLE schema_migrations DROP COLUMN checksum")
            try await Self.migrateFromFourHandles(first, test)
            try await Self.expectEveryChecksumStored(first)
        }
    }

    @Test("a released migration edited afterwards stops the start; an older table gets its checksums", arguments: Backend.all)
    func checksums(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database)
            let stored = try await database.read { db in
                try await db.query("SELECT version, checksum FROM schema_migrations ORDER BY version", []).map {
                    "\(try $0.int("version")):\(try $0.optionalString("checksum") ?? "-")"
                }
            }
            #expect(stored == Migration.all.map { "\($0.version):\($0.checksum(for: database.dialect))" })

            // Migration 3 edited after it was applied: refused, and nothing is applied after it.
            var edited = Migration.all
            let third = edited[2]
            edited[2] = Migration(
                version: third.version, name: third.name, sqlite: third.sqlite + "\n", postgres: third.postgres + "\n")
            let next = Migration(
                version: Migration.all.count + 1, name: "after_the_edit", sqlite: "CREATE TABLE after_edit (id TEXT)",
                postgres: "CREATE TABLE after_edit (id TEXT)")
            await #expect(throws: StoreError.self) { try await Migrator.migrate(database, migrations: edited + [next]) }
            #expect(try await Migrator.currentVersion(database) == Migration.all.count)

            // A table from before checksums: the column is added and filled on the next start.
            try await database.executeScript("ALTER TABLE schema_migrations DROP COLUMN checksum")
            try await Migrator.migrate(database)
            try await Self.expectEveryChecksumStored(database)
            await #expect(throws: StoreError.self) { try await Migrator.migrate(database, migrations: edited) }
        }
    }

    @Test("several instances migrating at once all succeed", arguments: Backend.all)
    func concurrentMigrators(_ backend: Backend) async throws {
        try await withDatabase(backend) { first, test in
            try await Self.migrateFromFourHandles(first, test)
            try await Self.expectEveryMigrationAppliedOnce(first)
        }
    }

    // MARK: Values

    @Test("values round-trip: integers, reals, text, blobs, nulls", arguments: Backend.all)
    func valuesRoundTrip(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            let blob = backend == .sqlite ? "BLOB" : "BYTEA"
            let real = backend == .sqlite ? "REAL" : "DOUBLE PRECISION"
            try await database.executeScript(
                "CREATE TABLE vals (k TEXT PRIMARY KEY, i BIGINT, r \(real), t TEXT, b \(blob));")
            let bytes: [UInt8] = [0, 1, 2, 0x7F, 0x80, 0xFF, 0]
            let text = "héllo ✓ 'quoted' ? ; \"dq\""
            try await database.write { db in
                let changed = try await db.execute(
                    "INSERT INTO vals (k, i, r, t, b) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)",
                    [
                        .text("a"), .integer(.max), .real(1.5), .text(text), .blob(bytes),
                        .text("b"), .null, .null, .null, .null,
                    ])
                #expect(changed == 2)
            }
            let rows = try await database.read { try await $0.query("SELECT * FROM vals ORDER BY k", []) }
            #expect(rows.count == 2)
            #expect(rows[0]["i"] == .integer(Int64.max))
            #expect(rows[0]["r"] == .real(1.5))
            #expect(rows[0]["t"] == .text(text))
            #expect(rows[0]["b"] == .blob(bytes))
            #expect(rows[1].values.dropFirst().allSatisfy { $0 == .null })
            #expect(rows[0].columns == ["k", "i", "r", "t", "b"])
            // A `?` inside a string literal is not a placeholder; aggregates come back as integers.
            let literal = try await database.read {
                try await $0.queryFirst("SELECT '?' AS q, COUNT(*) AS n, SUM(i) AS s FROM vals WHERE k = ?", "a")
            }
            #expect(literal?["q"] == .text("?"))
            #expect(try literal?.int("n") == 1)
            #expect(try literal?.int64("s") == Int64.max)
            // Changed-row counts.
            let updated = try await database.write { try await $0.execute("UPDATE vals SET i = ? WHERE k IN (?, ?)", 7, "a", "b") }
            #expect(updated == 2)
            let none = try await database.write { try await $0.execute("DELETE FROM vals WHERE k = ?", "zzz") }
            #expect(none == 0)
            // A wrong number of values is an error, not a silent null.
            await #expect(throws: StoreError.self) {
                _ = try await database.read { try await $0.query("SELECT * FROM vals WHERE k = ?", []) }
            }
        }
    }
}
