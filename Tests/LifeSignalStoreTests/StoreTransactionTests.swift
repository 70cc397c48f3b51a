import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for deleting, rollback and concurrency: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: transactions", .timeLimit(.minutes(2)))
struct StoreTransactionTests {
    // MARK: Deleting, rollback, concurrency

    @Test("deleting a user removes everything of theirs", arguments: Backend.all)
    func deleteCascades(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let incident = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .manualAlert, openedAt: t0, dueAt: t0)
            let toAnn = makeNotification(to: ann.id, at: at(1))
            let aboutAnn = makeNotification(to: bob.id, type: .incidentOpened, subject: ann.id, at: at(2))
            try await store.write { db in
                _ = try await db.checkIns.insert(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app))
                try await db.links.insert(LinkRecord(userID: ann.id, contactID: bob.id, roles: .responder, addedAt: t0))
                try await db.pings.insert(Ping(id: PingID(UUID()), fromUserID: bob.id, toUserID: ann.id, sentAt: t0))
                _ = try await db.incidents.insert(incident)
                try await db.incidents.addRecipient(incident.id, userID: bob.id, at: t0)
                _ = try await db.notifications.insert(toAnn)
                _ = try await db.notifications.insert(aboutAnn)
                try await db.deliveries.insert(makeDelivery(toAnn), fallbackRank: 0, dueAt: t0)
                _ = try await db.timeline.append(ann.id, at: t0, kind: "k", summary: "s", detail: "d")
                try await db.sessions.insert(
                    Session(id: SessionID(UUID()), userID: ann.id, kind: .session, name: "n", createdAt: t0, lastUsedAt: t0),
                    tokenHash: "h")
                try await db.channels.insert(
                    Channel(
                        id: ChannelID(UUID()), userID: ann.id, kind: .log, address: "x", priority: 0, categories: [.alerts], createdAt: t0))
            }
            try await store.write { try await $0.people.delete(ann.id) }

            #expect(try await store.read { try await $0.people.user(ann.id) } == nil)
            for table in ["check_ins", "pings", "incidents", "incident_recipients", "deliveries", "timeline", "sessions", "channels"] {
                let count = try await store.read { try await $0.executor.queryFirst("SELECT COUNT(*) AS n FROM \(table)")?.int("n") }
                #expect(count == 0, "table \(table)")
            }
            #expect(try await store.read { try await $0.links.all(of: bob.id) } == [])
            // Bob keeps his notification, no longer pointing at Ann.
            let kept = try await store.read { try await $0.notifications.notification(aboutAnn.id) }
            #expect(kept != nil)
            #expect(kept?.subjectUserID == nil)
            #expect(try await store.read { try await $0.notifications.notification(toAnn.id) } == nil)
            #expect(try await store.read { try await $0.people.user(bob.id) } != nil)
        }
    }

    @Test("a transaction that throws commits nothing", arguments: Backend.all)
    func rollback(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            // The body's own error comes back unchanged, and nothing it wrote remains.
            await #expect(throws: Boom.self) {
                try await store.write { db in
                    try await insertUserInside(db)
                    _ = try await db.checkIns.insert(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app))
                    throw Boom()
                }
            }
            // A failing statement rolls back the statements before it.
            await expectConstraint {
                try await store.write { db in
                    _ = try await db.checkIns.insert(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app))
                    try await db.links.insert(LinkRecord(userID: ann.id, contactID: ann.id, roles: .responder, addedAt: t0))
                }
            }
            #expect(try await store.read { try await $0.people.count() } == 1)
            #expect(try await store.read { try await $0.checkIns.list(of: ann.id, before: nil, limit: 10) } == [])
            // The database is still usable after both.
            #expect(
                try await store.write { try await $0.checkIns.insert(CheckIn(id: CheckInID(UUID()), userID: ann.id, at: t0, source: .app)) }
            )
        }
    }

    @Test("concurrent writers: 8 tasks × 50 transactions", arguments: Backend.all)
    func concurrentWriters(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let now = Date(milliseconds: 1_760_000_040_000)
            let counts = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var seen: [Int] = []
                        for _ in 0..<50 {
                            seen.append(
                                try await store.write { db in
                                    let hits = try await db.rateLimits.hit(bucket: "shared", now: now, window: 3600)
                                    let inserted = try await db.checkIns.insert(
                                        CheckIn(id: CheckInID(UUID()), userID: ann.id, at: at(Double(hits)), source: .app))
                                    #expect(inserted)
                                    try await db.db.execute("UPDATE users SET escalation_step = escalation_step + 1 WHERE id = ?", ann.id)
                                    return hits
                                })
                        }
                        return seen
                    }
                }
                var all: [Int] = []
                for try await seen in group { all += seen }
                return all
            }
            // Every transaction saw a different count: no lost updates, no duplicates.
            #expect(counts.sorted() == Array(1...400))
            let checkIns = try await store.read { try await $0.checkIns.list(of: ann.id, before: nil, limit: 1000) }
            #expect(checkIns.count == 400)
            #expect(try await store.read { try await $0.people.escalationState(ann.id) }?.step == 400)
            let hits = try await store.read {
                try await $0.executor.queryFirst("SELECT hits FROM rate_limits WHERE bucket = ?", "shared")?.int("hits")
            }
            #expect(hits == 400)
        }
    }

    @Test("reads see committed writes and never uncommitted ones", arguments: Backend.all)
    func readIsolation(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let (inside, outside) = try await store.write { db in
                try await db.people.setEscalation(ann.id, step: 7, nextActionAt: nil)
                let inside = try await db.people.escalationState(ann.id)?.step
                let outside = try await store.read { try await $0.people.escalationState(ann.id) }?.step
                return (inside, outside)
            }
            #expect(inside == 7)
            #expect(outside == 0)
            #expect(try await store.read { try await $0.people.escalationState(ann.id) }?.step == 7)
        }
    }
}

private func insertUserInside(_ db: StoreTransaction) async throws {
    try await db.people.insert(makeUser(), deadline: t0, nextActionAt: nil)
}
