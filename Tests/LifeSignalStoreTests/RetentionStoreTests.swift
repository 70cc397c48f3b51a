import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalStore

/// Retention's deletes and the outbox backlog query, on SQLite and (when configured) PostgreSQL.
@Suite("Retention store", .timeLimit(.minutes(2)))
struct RetentionStoreTests {
    static let day: TimeInterval = 86400

    /// A notification at `date` with one delivery, finished (`sent`) unless `queued`.
    @discardableResult
    func notification(
        _ store: Store, to user: User, at date: Date, incident: IncidentID? = nil, queued: Bool = false
    ) async throws -> LifeSignalModels.Notification {
        let n = makeNotification(to: user.id, incident: incident, at: date)
        var delivery = makeDelivery(n)
        if !queued { delivery.status = .sent }
        try await store.write { [delivery] tx in
            _ = try await tx.notifications.insert(n)
            try await tx.deliveries.insert(delivery, fallbackRank: 0, dueAt: queued ? date : nil)
        }
        return n
    }

    func exists(_ store: Store, _ id: NotificationID) async throws -> Bool {
        try await store.read { try await $0.notifications.notification(id) } != nil
    }

    @Test("old notifications go with their deliveries; recent, open-incident and queued ones stay", arguments: Backend.all)
    func prunesOnlyWhatItMay(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let now = at(40 * Self.day)
            let cutoff = now.addingTimeInterval(-30 * Self.day)
            let old = try await notification(store, to: ann, at: at(1))
            let recent = try await notification(store, to: ann, at: at(20 * Self.day))
            let queued = try await notification(store, to: ann, at: at(2), queued: true)
            let open = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .manualAlert, openedAt: at(3), dueAt: at(3))
            let closed = Incident(
                id: IncidentID(UUID()), userID: ann.id, kind: .missedCheckIn, openedAt: at(4), dueAt: at(4),
                resolvedAt: at(5), resolvedBy: ann.id, resolution: .checkedIn)
            _ = try await store.write { tx in
                _ = try await tx.incidents.insert([open, closed])
                try await tx.incidents.update(closed)  // the insert stores an incident open
            }
            let ofOpen = try await notification(store, to: ann, at: at(3), incident: open.id)
            let ofClosed = try await notification(store, to: ann, at: at(4), incident: closed.id)

            let pruned = try await store.write { try await $0.retention.pruneNotifications(before: cutoff, limit: 500) }
            #expect(pruned == PrunedRows(notifications: 2, deliveries: 2))
            #expect(try await exists(store, old.id) == false)
            #expect(try await exists(store, ofClosed.id) == false)
            #expect(try await store.read { try await $0.deliveries.list(notification: old.id) }.isEmpty)
            #expect(try await exists(store, recent.id))
            #expect(try await exists(store, queued.id))
            #expect(try await exists(store, ofOpen.id))
            #expect(try await store.read { try await $0.deliveries.list(notification: queued.id) }.count == 1)
            // Nothing more to do.
            let again = try await store.write { try await $0.retention.pruneNotifications(before: cutoff, limit: 500) }
            #expect(again == PrunedRows())
        }
    }

    @Test("batches take at most their limit, oldest first, until none is left", arguments: Backend.all)
    func batches(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            var ids: [NotificationID] = []
            for i in 0..<5 { ids.append(try await notification(store, to: ann, at: at(Double(i))).id) }
            let cutoff = at(100)
            var sizes: [Int] = []
            while true {
                let pruned = try await store.write { try await $0.retention.pruneNotifications(before: cutoff, limit: 2) }
                sizes.append(pruned.notifications)
                if pruned.notifications == 0 { break }
                if sizes.count == 1 {
                    // The two oldest went first.
                    #expect(try await exists(store, ids[0]) == false)
                    #expect(try await exists(store, ids[1]) == false)
                    #expect(try await exists(store, ids[2]))
                }
            }
            #expect(sizes == [2, 2, 1, 0])
        }
    }

    @Test("expired codes are deleted in batches, live ones kept", arguments: Backend.all)
    func expiredCodes(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            for (phone, expires) in [("+1", at(10)), ("+2", at(20)), ("+3", at(1000))] {
                let code = PendingCode(
                    phone: phone, purpose: "sign_in", userID: nil, codeHash: "h", createdAt: t0, expiresAt: expires,
                    attempts: 0, lastSentAt: t0)
                try await store.write { try await $0.sessions.savePendingCode(code) }
            }
            #expect(try await store.write { try await $0.retention.pruneExpiredCodes(now: at(500), limit: 1) } == 1)
            #expect(try await store.write { try await $0.retention.pruneExpiredCodes(now: at(500), limit: 1) } == 1)
            #expect(try await store.write { try await $0.retention.pruneExpiredCodes(now: at(500), limit: 1) } == 0)
            #expect(try await store.read { try await $0.sessions.pendingCode(phone: "+1", purpose: "sign_in") } == nil)
            #expect(try await store.read { try await $0.sessions.pendingCode(phone: "+3", purpose: "sign_in") } != nil)
        }
    }

    @Test("rate-limit windows that started before the cutoff are deleted, later ones kept", arguments: Backend.all)
    func rateLimits(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            _ = try await store.write { try await $0.rateLimits.hit(bucket: "code:phone:+1", now: at(0), window: 3600) }
            _ = try await store.write { try await $0.rateLimits.hit(bucket: "code:phone:+2", now: at(3 * Self.day), window: 3600) }
            let cutoff = at(2 * Self.day)
            // (The store calls are made outside #expect: a closure capturing a local inside the
            // macro miscompiles with this toolchain.)
            let first = try await store.write { try await $0.retention.pruneRateLimits(windowStartedBefore: cutoff, limit: 10) }
            let second = try await store.write { try await $0.retention.pruneRateLimits(windowStartedBefore: cutoff, limit: 10) }
            #expect(first == 1)
            #expect(second == 0)
            // The surviving bucket still counts on in its window; the pruned one starts over.
            #expect(
                try await store.write { try await $0.rateLimits.hit(bucket: "code:phone:+2", now: at(3 * Self.day), window: 3600) } == 2)
            #expect(
                try await store.write { try await $0.rateLimits.hit(bucket: "code:phone:+1", now: at(3 * Self.day), window: 3600) } == 1)
        }
    }

    @Test("the outbox backlog counts due deliveries and finds the oldest", arguments: Backend.all)
    func outboxBacklog(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let empty = try await store.read { try await $0.deliveries.outboxBacklog(now: at(100)) }
            #expect(empty.due == 0)
            #expect(empty.oldestDueAt == nil)
            try await notification(store, to: ann, at: at(10), queued: true)
            try await notification(store, to: ann, at: at(30), queued: true)
            try await notification(store, to: ann, at: at(500), queued: true)  // not due yet
            try await notification(store, to: ann, at: at(5))  // finished
            let backlog = try await store.read { try await $0.deliveries.outboxBacklog(now: at(100)) }
            #expect(backlog.due == 2)
            #expect(backlog.oldestDueAt == at(10))
        }
    }

    @Test("the store counts the transactions it has open", arguments: Backend.all)
    func transactionsInFlight(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            #expect(store.transactionsInFlight == 0)
            let inRead = try await store.read { _ in store.transactionsInFlight }
            let inWrite = try await store.write { _ in store.transactionsInFlight }
            #expect(inRead == 1)
            #expect(inWrite == 1)
            await #expect(throws: Boom.self) { try await store.write { _ in throw Boom() } }
            #expect(store.transactionsInFlight == 0, "a failed transaction is counted out too")
        }
    }
}
