import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalStore

/// A stored value the code does not know is a corrupt row, never silently a default: reading an
/// unknown delivery status as `queued` would send the message again.
@Suite("Strict row decoding", .timeLimit(.minutes(2)))
struct StrictDecodingTests {
    @Test("an unknown enumeration value is a decoding error naming the column")
    func unknownValue() throws {
        let row = SQLRow(columns: ["status", "resolution"], values: [.text("delivered-ish"), .null])
        #expect(throws: StoreError.decoding("column status holds unknown Status \"delivered-ish\"")) {
            try row.value("status", as: Delivery.Status.self)
        }
        #expect(try row.optionalValue("resolution", as: Incident.Resolution.self) == nil)
        let known = SQLRow(columns: ["status"], values: [.text(Delivery.Status.sent.rawValue)])
        #expect(try known.value("status", as: Delivery.Status.self) == .sent)
    }

    @Test("a delivery whose stored status is unknown cannot be read back", arguments: Backend.all)
    func corruptDelivery(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            try await Migrator.migrate(database)
            let store = Store(database: database)
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, at: at(1))
            let delivery = makeDelivery(n)
            try await store.write { tx in
                _ = try await tx.notifications.insert(n)
                try await tx.deliveries.insert(delivery, fallbackRank: 0, dueAt: at(1))
            }
            #expect(try await store.read { try await $0.deliveries.delivery(delivery.id) }?.delivery.status == .queued)
            try await database.write { db in
                _ = try await db.execute("UPDATE deliveries SET status = ? WHERE id = ?", "resent", delivery.id)
            }
            await #expect(throws: StoreError.self) {
                _ = try await store.read { try await $0.deliveries.delivery(delivery.id) }
            }
        }
    }
}
