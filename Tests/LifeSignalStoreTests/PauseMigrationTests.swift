import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// Migration 23 on both databases: the single pause of old becomes the first dated pause.
@Suite("Pause migration", .timeLimit(.minutes(2)))
struct PauseMigrationTests {
    @Test("a pause that still counts is carried over, set by herself; an old one is dropped", arguments: Backend.all)
    func singlePausesBecomeDatedPauses(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database, migrations: Array(Migration.all.prefix { $0.version < 23 }))
            let store = Store(database: database)
            let (paused, past, never) = (UserID(UUID()), UserID(UUID()), UserID(UUID()))
            // Paused until a time after her last check-in; paused once before her last check-in; never.
            let rows: [(UserID, String, Date?)] = [(paused, "Ada", at(500)), (past, "Bo", at(50)), (never, "Cy", nil)]
            for (index, (id, name, until)) in rows.enumerated() {
                try await store.write { tx in
                    _ = try await tx.executor.execute(
                        """
                        INSERT INTO users (id, phone, first_name, last_name, created_at, contact_code, deadline_at,
                            timeline_head, last_check_in_at, paused_until)
                        VALUES (?, ?, ?, 'Tester', ?, ?, ?, '', ?, ?)
                        """,
                        [
                            id.sqlValue, "+4477009\(index)0001".sqlValue, name.sqlValue, t0.sqlValue,
                            String(repeating: "\(index)", count: 32).sqlValue, at(86400).sqlValue, at(100).sqlValue,
                            until.sqlValue,
                        ])
                }
            }
            try await Migrator.migrate(database)
            let ada = try #require(try await store.read { try await $0.people.user(paused) })
            #expect(ada.pauses.count == 1)
            let pause = try #require(ada.pauses.first)
            #expect(pause.from == at(100) && pause.until == at(500) && pause.setAt == at(100))
            #expect(pause.setBy == paused && pause.setByName == "Ada Tester" && pause.id.description == paused.description)
            #expect(try await store.read { try await $0.people.user(past) }?.pauses == [])
            #expect(try await store.read { try await $0.people.user(never) }?.pauses == [])
            let left = try await store.read {
                try await $0.executor.queryFirst("SELECT COUNT(*) AS n FROM users WHERE paused_until IS NOT NULL")?.int("n")
            }
            #expect(left == 0)
        }
    }
}
