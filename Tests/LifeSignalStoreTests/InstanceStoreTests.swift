import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// Instances' heartbeats, and taking a silent one's delivery leases over, on both databases.
@Suite("Instances watching each other", .timeLimit(.minutes(2)))
struct InstanceStoreTests {
    static func run(_ id: String, at start: Date = t0) -> InstanceRecord {
        InstanceRecord(id: id, instanceID: String(id.prefix { $0 != "#" }), name: "host:\(id.count)", startedAt: start, lastSeen: start)
    }

    @Test("heartbeats, a silent run taken over once, its leases released", arguments: Backend.all)
    func heartbeatExpiryAndRelease(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let (alive, dead) = (Self.run("alive#1"), Self.run("dead#1"))
            try await store.write { tx in
                try await tx.instances.heartbeat(alive, at: t0)
                try await tx.instances.heartbeat(dead, at: t0)
                try await tx.instances.heartbeat(dead, at: at(5))
                try await tx.instances.heartbeat(alive, at: at(35))
            }
            let rows = try await store.read { try await $0.instances.all() }
            #expect(rows.map(\.id).sorted() == ["alive#1", "dead#1"])
            #expect(rows.first { $0.id == "dead#1" }?.lastSeen == at(5))
            #expect(rows.first { $0.id == "dead#1" }?.instanceID == "dead")

            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, type: .incidentOpened, at: t0)
            let held = (0..<3).map { makeDelivery(n, address: "dead\($0)") }
            let own = makeDelivery(n, address: "alive")
            try await store.write { tx in
                _ = try await tx.notifications.insert(n)
                try await tx.deliveries.insert(held.map { ($0, 0, t0) }, leasedTo: DeliveryLease(owner: "dead#1", until: at(120)))
                try await tx.deliveries.insert([(own, 0, t0)], leasedTo: DeliveryLease(owner: "alive#1", until: at(120)))
                // The dead run had handed one of them to its provider.
                _ = try await tx.executor.execute(
                    "UPDATE deliveries SET sending_since = ? WHERE id = ?", [at(4).sqlValue, held[0].id.sqlValue])
            }

            // Heard from at 5 s: not silent before 5 s.
            #expect(try await store.write { try await $0.instances.takeOver("dead#1", silentBefore: at(5), at: at(35)) } == nil)
            let takeover = try #require(
                try await store.write { try await $0.instances.takeOver("dead#1", silentBefore: at(6), at: at(36)) })
            #expect(takeover.deliveries == 3)
            #expect(takeover.inFlight == 1)
            #expect(takeover.instance.id == "dead#1")
            // Once: a second survivor finds it taken over.
            #expect(try await store.write { try await $0.instances.takeOver("dead#1", silentBefore: at(7), at: at(37)) } == nil)
            #expect(try await store.read { try await $0.instances.all() }.first { $0.id == "dead#1" }?.takenOverAt == at(36))

            // The survivor claims the dead run's deliveries at once (their leases ran to 120 s);
            // its own stays with it.
            let claimed = try await store.write {
                try await $0.deliveries.claimDue(now: at(37), limit: 10, owner: "alive#1", leaseUntil: at(157))
            }
            #expect(Set(claimed.map(\.delivery.id)) == Set(held.map(\.id)))

            // Heard from again (a pause, not a death): alive again, and taken over again only
            // after another silence.
            try await store.write { try await $0.instances.heartbeat(dead, at: at(40)) }
            #expect(try await store.read { try await $0.instances.all() }.first { $0.id == "dead#1" }?.takenOverAt == nil)
            #expect(try await store.write { try await $0.instances.takeOver("dead#1", silentBefore: at(40), at: at(41)) } == nil)

            // Forgotten only once taken over and silent long enough; a clean stop removes its row.
            #expect(try await store.write { try await $0.instances.forget(takenOverAndSilentBefore: at(1000)) } == 0)
            _ = try await store.write { try await $0.instances.takeOver("dead#1", silentBefore: at(80), at: at(80)) }
            #expect(try await store.write { try await $0.instances.forget(takenOverAndSilentBefore: at(30)) } == 0)
            #expect(try await store.write { try await $0.instances.forget(takenOverAndSilentBefore: at(41)) } == 1)
            try await store.write { try await $0.instances.remove("alive#1") }
            #expect(try await store.read { try await $0.instances.all() }.isEmpty)
        }
    }

    /// Two survivors on their own connections noticing the same dead run at the same moment:
    /// exactly one takes it over, and its leases are released once.
    @Test("two survivors at once: one takeover", arguments: Backend.postgresOnly)
    func twoSurvivorsRace(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, test in
            try await Migrator.migrate(database)
            let (one, two) = (Store(database: database), Store(database: try await test.open()))
            for round in 0..<20 {
                let dead = Self.run("dead#\(round)")
                try await one.write { try await $0.instances.heartbeat(dead, at: t0) }
                async let first = one.write { try await $0.instances.takeOver(dead.id, silentBefore: at(31), at: at(31)) }
                async let second = two.write { try await $0.instances.takeOver(dead.id, silentBefore: at(31), at: at(31)) }
                let outcomes = [try await first, try await second]
                #expect(outcomes.compactMap { $0 }.count == 1, "round \(round)")
            }
            await two.close()
        }
    }
}
