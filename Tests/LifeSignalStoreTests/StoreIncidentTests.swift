import Foundation
import LifeSignalModels
import Testing

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for incidents and notifications: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: incidents and notifications", .timeLimit(.minutes(2)))
struct StoreIncidentTests {
    // MARK: Incidents

    @Test("one open incident per user and kind", arguments: Backend.all)
    func incidents(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            var missed = Incident(
                id: IncidentID(UUID()), userID: ann.id, kind: .missedCheckIn, openedAt: at(1), dueAt: at(0),
                late: true, nextNotifyAt: at(60))
            let first = missed
            #expect(try await store.write { try await $0.incidents.insert(first) } == true)
            let duplicate = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .missedCheckIn, openedAt: at(2), dueAt: at(0))
            #expect(try await store.write { try await $0.incidents.insert(duplicate) } == false)
            let manual = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .manualAlert, openedAt: at(3), dueAt: at(3))
            #expect(try await store.write { try await $0.incidents.insert(manual) } == true)
            let opened = missed
            #expect(try await store.read { try await $0.incidents.openIncidents(of: ann.id) } == [opened, manual])
            #expect(try await store.read { try await $0.incidents.openIncidents(of: [ann.id, bob.id]) }.count == 2)

            try await store.write { [missed] db in
                try await db.incidents.addRecipient(missed.id, userID: bob.id, at: at(5))
                try await db.incidents.addRecipient(missed.id, userID: bob.id, at: at(6))
                try await db.incidents.addRecipient(missed.id, userID: ann.id, at: at(7))
            }
            let missedID = missed.id
            #expect(try await store.read { try await $0.incidents.recipients(missedID) } == [bob.id, ann.id])

            missed.acknowledgedBy = bob.id
            missed.acknowledgedAt = at(10)
            missed.notifyCount = 2
            missed.resolvedAt = at(20)
            missed.resolvedBy = bob.id
            missed.resolution = .resolvedByResponder
            missed.nextNotifyAt = nil
            let resolved = missed
            try await store.write { try await $0.incidents.update(resolved) }
            #expect(try await store.read { try await $0.incidents.incident(missedID) } == resolved)
            #expect(try await store.read { try await $0.incidents.openIncidents(of: ann.id) } == [manual])
            // Once resolved, the same kind may open again.
            let reopened = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .missedCheckIn, openedAt: at(30), dueAt: at(29))
            #expect(try await store.write { try await $0.incidents.insert(reopened) } == true)
            #expect(try await store.read { try await $0.incidents.list(of: ann.id, limit: 2) }.map(\.id) == [reopened.id, manual.id])
        }
    }

    // MARK: Notifications

    @Test("notifications: step dedupe, filters, paging, read state", arguments: Backend.all)
    func notifications(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let ann = try await insertUser(store)
            let bob = try await insertUser(store)
            let alert = makeNotification(to: ann.id, type: .incidentOpened, subject: bob.id, at: at(10))
            #expect(try await store.write { try await $0.notifications.insert(alert, stepKey: "inc-1:step-1") } == true)
            let again = makeNotification(to: ann.id, type: .incidentOpened, at: at(11))
            #expect(try await store.write { try await $0.notifications.insert(again, stepKey: "inc-1:step-1") } == false)
            // Without a step key there is no dedupe.
            let kinds: [LifeSignalModels.Notification.Kind] = [.pingReceived, .contactAdded, .drill, .pingAnswered]
            var all = [alert]
            for (offset, kind) in kinds.enumerated() {
                let n = makeNotification(to: ann.id, type: kind, at: at(Double(20 + offset)))
                #expect(try await store.write { try await $0.notifications.insert(n) } == true)
                all.append(n)
            }
            _ = try await store.write { try await $0.notifications.insert(makeNotification(to: bob.id, at: at(15))) }

            let newestFirst = all.sorted { $0.createdAt > $1.createdAt }
            let everything = try await store.read { try await $0.notifications.list(of: ann.id, NotificationQuery(), since: t0) }
            #expect(everything == newestFirst)
            let pings = try await store.read {
                try await $0.notifications.list(of: ann.id, NotificationQuery(category: .pings), since: t0)
            }
            #expect(pings.map(\.type) == [.pingAnswered, .pingReceived])
            let alerts = try await store.read {
                try await $0.notifications.list(of: ann.id, NotificationQuery(category: .alerts), since: t0)
            }
            #expect(alerts == [alert])
            // Paging backwards with `before` and `limit`.
            let page1 = try await store.read { try await $0.notifications.list(of: ann.id, NotificationQuery(limit: 2), since: t0) }
            #expect(page1 == Array(newestFirst.prefix(2)))
            let page2 = try await store.read {
                try await $0.notifications.list(of: ann.id, NotificationQuery(before: page1.last?.createdAt, limit: 2), since: t0)
            }
            #expect(page2 == Array(newestFirst.dropFirst(2).prefix(2)))
            let recent = try await store.read { try await $0.notifications.list(of: ann.id, NotificationQuery(), since: at(21)) }
            #expect(recent.count == 3)

            #expect(try await store.read { try await $0.notifications.unreadCount(of: ann.id, since: t0) } == 5)
            #expect(try await store.write { try await $0.notifications.markRead(alert.id, of: ann.id, at: at(30)) } == true)
            #expect(try await store.write { try await $0.notifications.markRead(alert.id, of: bob.id, at: at(31)) } == false)
            // Marking again keeps the first read time.
            _ = try await store.write { try await $0.notifications.markRead(alert.id, of: ann.id, at: at(40)) }
            #expect(try await store.read { try await $0.notifications.notification(alert.id) }?.readAt == at(30))
            let unread = try await store.read {
                try await $0.notifications.list(of: ann.id, NotificationQuery(unreadOnly: true), since: t0)
            }
            #expect(unread.count == 4)
            #expect(!unread.contains { $0.id == alert.id })
            #expect(try await store.write { try await $0.notifications.markAllRead(of: ann.id, since: t0, at: at(50)) } == 4)
            #expect(try await store.read { try await $0.notifications.unreadCount(of: ann.id, since: t0) } == 0)
            #expect(try await store.read { try await $0.notifications.unreadCount(of: bob.id, since: t0) } == 1)
            // "Mark all read" counts what the unread count counts: not what is older than her
            // history, not what she deleted.
            let bobs = try #require(
                try await store.read { try await $0.notifications.list(of: bob.id, NotificationQuery(), since: t0) }.first)
            let afterBobs = bobs.createdAt.addingTimeInterval(1)
            #expect(try await store.write { try await $0.notifications.markAllRead(of: bob.id, since: afterBobs, at: at(51)) } == 0)
            #expect(try await store.write { try await $0.notifications.hide(bobs.id, of: bob.id, at: at(52)) } == true)
            #expect(try await store.write { try await $0.notifications.markAllRead(of: bob.id, since: t0, at: at(53)) } == 0)
            #expect(try await store.read { try await $0.notifications.unreadCount(of: bob.id, since: t0) } == 0)
            #expect(try await store.write { try await $0.notifications.hide(alert.id, of: bob.id, at: at(60)) } == false)
            #expect(try await store.write { try await $0.notifications.hide(alert.id, of: ann.id, at: at(60)) } == true)
            #expect(try await store.write { try await $0.notifications.hide(alert.id, of: ann.id, at: at(61)) } == false)
            // Hidden from its recipient's history, kept as the delivery proof others see.
            #expect(try await store.read { try await $0.notifications.notification(alert.id) } != nil)
            #expect(
                try await store.read { try await $0.notifications.list(of: ann.id, NotificationQuery(), since: t0) }
                    .contains { $0.id == alert.id } == false)
        }
    }

    @Test("many rows per statement: every group size, step dedupe within and across batches, outcomes with nulls", arguments: Backend.all)
    func multiRowWrites(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            let users = [try await insertUser(store), try await insertUser(store), try await insertUser(store)]
            // 150 rows take every group size (64, 64, 16, 4, 1, 1); the last repeats the 8th's step key.
            let batch = (0..<150).map { index in
                NewNotification(
                    makeNotification(to: users[index % 3].id, at: at(Double(index))), stepKey: "step-\(index == 149 ? 7 : index)")
            }
            let inserted = try await store.write { try await $0.notifications.insert(batch) }
            #expect(inserted == Set(batch.dropLast().map(\.notification.id)))
            let again = batch.map { NewNotification(makeNotification(to: $0.notification.recipientID), stepKey: $0.stepKey) }
            #expect(try await store.write { try await $0.notifications.insert(again) }.isEmpty)
            #expect(try await store.read { try await $0.notifications.notification(batch[149].notification.id) } == nil)

            let deliveries = batch.dropLast().map { (makeDelivery($0.notification), 0, Optional(at(0))) }
            try await store.write { try await $0.deliveries.insert(deliveries) }
            try await store.write { tx in
                try await tx.deliveries.update(
                    deliveries[0].0.id, status: .sent, reason: nil, attempts: 1, providerID: "p-0", nextAttemptAt: nil, at: at(5))
            }
            // Outcomes mixing nulls and values in every column that can be null; a null provider
            // id keeps the one stored.
            let updates = deliveries.enumerated().map { index, row in
                DeliveryUpdate(
                    id: row.0.id, status: index % 2 == 0 ? .delivered : .queued, reason: index % 2 == 0 ? nil : "busy",
                    attempts: 2, providerID: index % 2 == 0 ? nil : "p-\(index)",
                    nextAttemptAt: index % 2 == 0 ? nil : at(60), at: at(10))
            }
            try await store.write { try await $0.deliveries.update(updates) }
            for (index, row) in deliveries.enumerated() {
                let saved = try #require(try await store.read { try await $0.deliveries.delivery(row.0.id) }?.delivery)
                #expect(saved.status == (index % 2 == 0 ? .delivered : .queued))
                #expect(saved.reason == (index % 2 == 0 ? nil : "busy"))
                #expect(saved.attempts == 2)
                #expect(saved.providerID == (index == 0 ? "p-0" : index % 2 == 0 ? nil : "p-\(index)"))
                #expect(saved.updatedAt == at(10))
            }
            // An outcome that expects fewer attempts than the delivery now has (a worker whose
            // lease was taken over) changes nothing and is not reported as recorded.
            let stale = DeliveryUpdate(
                id: deliveries[1].0.id, status: .failed, reason: "late", attempts: 2, providerID: nil, nextAttemptAt: nil,
                at: at(20), expectedAttempts: 1)
            let current = DeliveryUpdate(
                id: deliveries[3].0.id, status: .queued, reason: "busy", attempts: 3, providerID: nil, nextAttemptAt: at(60),
                at: at(20), expectedAttempts: 2)
            #expect(try await store.write { try await $0.deliveries.update([stale, current]) } == [deliveries[3].0.id])
            #expect(try await store.read { try await $0.deliveries.delivery(deliveries[1].0.id) }?.delivery.status == .queued)
            #expect(try await store.read { try await $0.deliveries.delivery(deliveries[3].0.id) }?.delivery.attempts == 3)
            let due = try await store.write {
                try await $0.deliveries.claimDue(now: at(60), limit: 500, owner: "w", leaseUntil: at(120))
            }
            #expect(due.count == 74)

            // People with the same step and next action share a statement; each keeps their own.
            try await store.write { tx in
                try await tx.people.setEscalations([
                    EscalationUpdate(id: users[0].id, step: 3, nextActionAt: nil),
                    EscalationUpdate(id: users[1].id, step: 2, nextActionAt: at(99)),
                    EscalationUpdate(id: users[2].id, step: 3, nextActionAt: nil),
                ])
            }
            var states: [EscalationPosition?] = []
            for user in users { states.append(try await store.read { try await $0.people.escalationState(user.id) }) }
            #expect(states.map { $0?.step } == [3, 2, 3])
            #expect(states.map { $0?.nextActionAt } == [nil, at(99), nil])
            // An IN list of three, padded to four, still finds exactly three.
            #expect(try await store.read { try await $0.people.users(users.map(\.id)) }.count == 3)
        }
    }
}
