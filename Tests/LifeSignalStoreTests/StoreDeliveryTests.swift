import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for deliveries and their leases: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: deliveries", .timeLimit(.minutes(2)))
struct StoreDeliveryTests {
    // MARK: Deliveries

    @Test("a delivery is read with its notification in one go", arguments: Backend.all)
    func deliveryWithNotification(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, type: .incidentOpened, at: at(0))
            let d = makeDelivery(n, address: "a")
            try await store.write { db in
                _ = try await db.notifications.insert(n)
                try await db.deliveries.insert(d, fallbackRank: 2, dueAt: at(0))
            }
            let found = try #require(try await store.read { try await $0.deliveries.deliveryWithNotification(d.id) })
            #expect(found.delivery == (try await store.read { try await $0.deliveries.delivery(d.id) })?.delivery)
            #expect(found.fallbackRank == 2)
            #expect(found.notification == n)
            #expect(try await store.read { try await $0.deliveries.deliveryWithNotification(DeliveryID(UUID())) } == nil)
        }
    }

    @Test("deliveries to record are read together, with their recipients' names", arguments: Backend.all)
    func deliveriesToRecord(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            var named = makeUser()
            named.firstName = "Ann"
            named.lastName = "Lee"
            let ann = try await insertUser(store, named)
            let bo = try await insertUser(store)
            let toAnn = makeNotification(to: ann.id, type: .incidentOpened, at: at(0))
            let toBo = makeNotification(to: bo.id, at: at(0))
            let (a, b) = (makeDelivery(toAnn, address: "a"), makeDelivery(toBo, address: "b"))
            try await store.write { db in
                _ = try await db.notifications.insert(toAnn)
                _ = try await db.notifications.insert(toBo)
                try await db.deliveries.insert(a, fallbackRank: 0, dueAt: at(0))
                try await db.deliveries.insert(b, fallbackRank: -1, dueAt: at(0))
            }
            let unknown = DeliveryID(UUID())
            let found = try await store.read { try await $0.deliveries.deliveriesToRecord([a.id, unknown, b.id]) }
            #expect(Set(found.keys) == [a.id, b.id])
            #expect(found[a.id]?.notification == toAnn)
            #expect(found[a.id]?.recipient == .init(firstName: "Ann", lastName: "Lee", phone: ann.phone))
            #expect(found[b.id]?.recipient == .init(firstName: "", lastName: "", phone: bo.phone))
            #expect(found[b.id]?.fallbackRank == -1)
            #expect(try await store.read { try await $0.deliveries.deliveriesToRecord([]) }.isEmpty)
        }
    }

    @Test("a claimed delivery is not claimed again until its lease expires", arguments: Backend.all)
    func deliveryLeases(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, type: .incidentOpened, at: at(0))
            let due = (0..<3).map { makeDelivery(n, address: "a\($0)") }
            try await store.write { db in
                _ = try await db.notifications.insert(n)
                for (rank, d) in due.enumerated() {
                    try await db.deliveries.insert(d, fallbackRank: rank, dueAt: at(Double(rank)))
                }
                // Not due yet, and finished: never claimed below.
                try await db.deliveries.insert(makeDelivery(n, address: "later"), fallbackRank: 9, dueAt: at(1000))
                try await db.deliveries.insert(makeDelivery(n, address: "done"), fallbackRank: 9, dueAt: nil)
            }
            #expect(try await store.read { try await $0.deliveries.pendingCount() } == 4)

            let now = at(10)
            let first = try await store.write {
                try await $0.deliveries.claimDue(now: now, limit: 2, owner: "w1", leaseUntil: now + 30)
            }
            #expect(first.map(\.delivery.id) == [due[0].id, due[1].id])
            #expect(first.map(\.fallbackRank) == [0, 1])
            #expect(first.first?.notification == n)
            let second = try await store.write {
                try await $0.deliveries.claimDue(now: now + 1, limit: 10, owner: "w2", leaseUntil: now + 31)
            }
            #expect(second.map(\.delivery.id) == [due[2].id])
            let third = try await store.write {
                try await $0.deliveries.claimDue(now: now + 29, limit: 10, owner: "w3", leaseUntil: now + 60)
            }
            #expect(third.isEmpty)

            // w1 finishes one; its other lease expires and is taken over.
            try await store.write {
                try await $0.deliveries.update(
                    due[0].id, status: .sent, reason: nil, attempts: 1, providerID: "p-1", nextAttemptAt: nil, at: now + 2)
            }
            let takeover = try await store.write {
                try await $0.deliveries.claimDue(now: now + 30.001, limit: 10, owner: "w4", leaseUntil: now + 90)
            }
            #expect(takeover.map(\.delivery.id) == [due[1].id])
            let sent = try #require(try await store.read { try await $0.deliveries.delivery(due[0].id) })
            #expect(sent.delivery.status == .sent)
            #expect(sent.delivery.attempts == 1)
            #expect(try await store.read { try await $0.deliveries.delivery(providerID: "p-1") }?.id == due[0].id)
            #expect(try await store.read { try await $0.deliveries.list(notification: n.id) }.count == 5)
            #expect(try await store.read { try await $0.deliveries.pendingCount() } == 3)
        }
    }

    @Test("concurrent claimers never get the same delivery", arguments: Backend.all)
    func concurrentClaims(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, at: at(0))
            try await store.write { db in
                _ = try await db.notifications.insert(n)
                for index in 0..<40 {
                    try await db.deliveries.insert(makeDelivery(n, address: "\(index)"), fallbackRank: 0, dueAt: at(Double(index) / 100))
                }
            }
            let now = at(10)
            let claimed = try await withThrowingTaskGroup(of: [DeliveryID].self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        var mine: [DeliveryID] = []
                        while true {
                            let batch = try await store.write {
                                try await $0.deliveries.claimDue(now: now, limit: 3, owner: "w\(worker)", leaseUntil: now + 60)
                            }
                            if batch.isEmpty { return mine }
                            mine += batch.map(\.delivery.id)
                        }
                    }
                }
                var all: [DeliveryID] = []
                for try await ids in group { all += ids }
                return all
            }
            #expect(claimed.count == 40)
            #expect(Set(claimed).count == 40)
        }
    }
}
