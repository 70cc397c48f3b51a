import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// Migration 26 on both databases: deliveries queued before it get their pace rank from their
/// notification, so a paced claim still takes alerts first, then daily calls, then the rest.
@Suite("Pace rank migration", .timeLimit(.minutes(2)))
struct PaceRankMigrationTests {
    @Test("queued deliveries are ranked by their notification's kind", arguments: Backend.all)
    func queuedDeliveriesGetTheirRank(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database, migrations: Array(Migration.all.prefix { $0.version < 26 }))
            let store = Store(database: database)
            let ada = UserID(UUID())
            // Oldest first: a drill, a daily call, then the alert; and one alert sent already.
            let (drill, call, alert, done) = (DeliveryID(UUID()), DeliveryID(UUID()), DeliveryID(UUID()), DeliveryID(UUID()))
            let rows: [(String, DeliveryID, Date?)] = [
                ("drill", drill, at(1)), ("daily_call", call, at(2)), ("incident_opened", alert, at(3)), ("incident_opened", done, nil),
            ]
            try await store.write { tx in
                _ = try await tx.executor.execute(
                    """
                    INSERT INTO users (id, phone, first_name, last_name, created_at, contact_code, deadline_at, timeline_head)
                    VALUES (?, '+447700900001', 'Ada', 'Tester', ?, ?, ?, '')
                    """,
                    [ada.sqlValue, t0.sqlValue, String(repeating: "a", count: 32).sqlValue, at(86400).sqlValue])
                for (kind, delivery, due) in rows {
                    let notification = NotificationID(UUID())
                    _ = try await tx.executor.execute(
                        "INSERT INTO notifications (id, recipient_id, type, title, body, created_at) VALUES (?, ?, ?, 't', 'b', ?)",
                        [notification.sqlValue, ada.sqlValue, kind.sqlValue, t0.sqlValue])
                    _ = try await tx.executor.execute(
                        """
                        INSERT INTO deliveries (id, notification_id, recipient_id, channel, address, status, created_at,
                            updated_at, next_attempt_at)
                        VALUES (?, ?, ?, 'voice', '+447700900001', 'queued', ?, ?, ?)
                        """,
                        [delivery.sqlValue, notification.sqlValue, ada.sqlValue, t0.sqlValue, t0.sqlValue, due.sqlValue])
                }
            }
            try await Migrator.migrate(database)
            let ranks = try await store.read { tx in
                try await tx.executor.query("SELECT id, pace_rank FROM deliveries", []).map {
                    (try $0.id("id") as DeliveryID, try $0.int("pace_rank"))
                }
            }
            #expect(Dictionary(uniqueKeysWithValues: ranks) == [drill: 2, call: 1, alert: 0, done: 2])
            for expected in [alert, call, drill] {
                let claimed = try await store.write {
                    try await $0.deliveries.claimDue(now: at(10), limit: 10, owner: "w", leaseUntil: at(60), paced: [.voice: 1])
                }
                #expect(claimed.map(\.delivery.id) == [expected])
            }
        }
    }
}
