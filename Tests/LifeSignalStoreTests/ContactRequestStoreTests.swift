import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalStore

/// Contact requests and the consent migration, on both databases.
@Suite("Contact requests", .timeLimit(.minutes(2)))
struct ContactRequestStoreTests {
    @Test("links made before consent are kept and marked for a one-time notice", arguments: Backend.all)
    func consentMigrationKeepsLinks(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            // The schema before consent, plus the later users columns today's insertUser writes
            // (0005, 0006, 0011, 0015, 0019, 0021, 0022 and 0023 only add or fill users columns, so they apply as
            // well before 0002 as after).
            try await Migrator.migrate(
                database,
                migrations: Migration.all.filter { [1, 5, 6, 11, 15, 19, 21, 22, 23].contains($0.version) })
            let store = Store(database: database)
            let ada = try await insertUser(store)
            let bob = try await insertUser(store)
            try await store.write {
                try await $0.links.insert(LinkRecord(userID: ada.id, contactID: bob.id, roles: .responder, addedAt: t0))
            }

            try await Migrator.migrate(database)
            #expect(try await store.read { try await $0.links.link(userID: ada.id, contactID: bob.id) }?.roles == .responder)
            let due = try await store.read { try await $0.links.dueConsentNotice(limit: 10) }
            #expect(Set(due.map { "\($0.userID)>\($0.contactID)" }) == ["\(ada.id)>\(bob.id)", "\(bob.id)>\(ada.id)"])
            #expect(try await store.read { try await $0.links.dueConsentNotice(limit: 1) }.count == 1)
            for link in due {
                try await store.write { try await $0.links.clearConsentNotice(userID: link.userID, contactID: link.contactID) }
            }
            #expect(try await store.read { try await $0.links.dueConsentNotice(limit: 10) }.isEmpty)

            // Links made after the migration (by accepted requests) owe no notice.
            let cy = try await insertUser(store)
            try await store.write {
                try await $0.links.insert(LinkRecord(userID: ada.id, contactID: cy.id, roles: .dependent, addedAt: at(5)))
            }
            #expect(try await store.read { try await $0.links.dueConsentNotice(limit: 10) }.isEmpty)
        }
    }

    @Test("one pending request per sender and recipient, decided once", arguments: Backend.all)
    func requestLifecycle(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ada = try await insertUser(store, makeUser())
            let bob = try await insertUser(store)
            let first = ContactRequest(
                id: ContactRequestID(UUID()), fromUserID: ada.id, toUserID: bob.id, roles: .responder, state: .pending, createdAt: t0)
            try await store.write { try await $0.contactRequests.insert(first) }
            await expectConstraint("a second pending request for the same pair") {
                try await store.write {
                    try await $0.contactRequests.insert(
                        ContactRequest(
                            id: ContactRequestID(UUID()), fromUserID: ada.id, toUserID: bob.id, roles: .dependent, state: .pending,
                            createdAt: at(1)))
                }
            }
            await expectConstraint("no request to oneself") {
                try await store.write {
                    try await $0.contactRequests.insert(
                        ContactRequest(
                            id: ContactRequestID(UUID()), fromUserID: ada.id, toUserID: ada.id, roles: .dependent, state: .pending,
                            createdAt: at(1)))
                }
            }
            // The other direction is a request of its own.
            let back = ContactRequest(
                id: ContactRequestID(UUID()), fromUserID: bob.id, toUserID: ada.id, roles: .dependent, state: .pending, createdAt: at(2))
            try await store.write { try await $0.contactRequests.insert(back) }

            let pending = try #require(try await store.read { try await $0.contactRequests.pending(from: ada.id, to: bob.id) })
            #expect(pending.id == first.id && pending.roles == .responder && pending.state == .pending)

            #expect(try await store.write { try await $0.contactRequests.decide(first.id, state: .declined, at: at(10)) })
            #expect(try await store.write { try await $0.contactRequests.decide(first.id, state: .accepted, at: at(11)) } == false)
            let declined = try #require(try await store.read { try await $0.contactRequests.request(first.id) })
            #expect(declined.state == .declined && declined.decidedAt == at(10))
            #expect(try await store.read { try await $0.contactRequests.pending(from: ada.id, to: bob.id) } == nil)
            #expect(try await store.read { try await $0.contactRequests.lastDeclined(from: ada.id, to: bob.id) } == at(10))
            #expect(try await store.read { try await $0.contactRequests.lastDeclined(from: bob.id, to: ada.id) } == nil)

            // Pending first, then answered; both sides see both.
            let adas = try await store.read { try await $0.contactRequests.all(involving: ada.id) }
            #expect(adas.map(\.id) == [back.id, first.id])
            #expect(try await store.read { try await $0.contactRequests.all(involving: bob.id) }.map(\.id) == [back.id, first.id])
            // Deleting an account takes its requests with it.
            try await store.write { try await $0.people.delete(bob.id) }
            #expect(try await store.read { try await $0.contactRequests.all(involving: ada.id) }.isEmpty)
        }
    }

    @Test("a restart takes back its dead run's delivery leases, no one else's", arguments: Backend.all)
    func deadLeasesOfThisInstanceAreReleased(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let n = makeNotification(to: ann.id, type: .incidentOpened, at: t0)
            let dead = (0..<2).map { makeDelivery(n, address: "dead\($0)") }
            let live = makeDelivery(n, address: "live")
            let other = makeDelivery(n, address: "other")
            try await store.write { tx in
                _ = try await tx.notifications.insert(n)
                try await tx.deliveries.insert(dead.map { ($0, 0, t0) }, leasedTo: DeliveryLease(owner: "host:8080#old", until: at(120)))
                try await tx.deliveries.insert([(live, 0, t0)], leasedTo: DeliveryLease(owner: "host:8080#new", until: at(120)))
                try await tx.deliveries.insert([(other, 0, t0)], leasedTo: DeliveryLease(owner: "host:8081#old", until: at(120)))
            }
            // Leased: nothing is claimable before the leases end.
            #expect(
                try await store.write { try await $0.deliveries.claimDue(now: at(1), limit: 10, owner: "w", leaseUntil: at(60)) }.isEmpty)
            let released = try await store.write { try await $0.deliveries.releaseDeadLeases(stem: "host:8080#", except: "host:8080#new") }
            #expect(released == 2)
            let claimed = try await store.write {
                try await $0.deliveries.claimDue(now: at(2), limit: 10, owner: "host:8080#new", leaseUntil: at(60))
            }
            #expect(Set(claimed.map(\.delivery.id)) == Set(dead.map(\.id)))
        }
    }
}
