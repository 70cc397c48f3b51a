import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalStore

/// The reads behind "help is coming", on both databases: who was told about each incident,
/// and the alert deliveries to them only.
@Suite("Incident progress", .timeLimit(.minutes(2)))
struct IncidentProgressStoreTests {
    @Test("recipients with names, and only their alert deliveries, for many incidents at once", arguments: Backend.all)
    func progress(_ backend: Backend) async throws {
        try await withStore(backend) { store in
            var annUser = makeUser()
            annUser.firstName = "Ann"
            var bobUser = makeUser()
            bobUser.firstName = "Bob"
            bobUser.lastName = "Smith"
            let ann = try await insertUser(store, annUser)
            let bob = try await insertUser(store, bobUser)
            let cy = try await insertUser(store)
            let sos = Incident(id: IncidentID(UUID()), userID: ann.id, kind: .manualAlert, openedAt: at(1), dueAt: at(1))
            let other = Incident(id: IncidentID(UUID()), userID: cy.id, kind: .missedCheckIn, openedAt: at(1), dueAt: at(0))
            // Bob's alert and its repeat; Ann's own notice; Bob's acknowledgement notice; an
            // alert about the other incident (Cy's, to Bob).
            let alert = makeNotification(to: bob.id, type: .manualAlert, subject: ann.id, incident: sos.id, at: at(1))
            let repeated = makeNotification(to: bob.id, type: .manualAlert, subject: ann.id, incident: sos.id, at: at(60))
            let own = makeNotification(to: ann.id, type: .incidentOpened, subject: ann.id, incident: sos.id, at: at(1))
            let ack = makeNotification(to: bob.id, type: .incidentAcknowledged, subject: ann.id, incident: sos.id, at: at(70))
            let cys = makeNotification(to: bob.id, type: .incidentOpened, subject: cy.id, incident: other.id, at: at(2))
            let deliveries = [alert, repeated, own, ack, cys].map { makeDelivery($0) }
            try await store.write { tx in
                _ = try await tx.incidents.insert([sos, other])
                _ = try await tx.notifications.insert([alert, repeated, own, ack, cys].map { NewNotification($0, stepKey: nil) })
                for delivery in deliveries { try await tx.deliveries.insert(delivery, fallbackRank: 0, dueAt: nil) }
                try await tx.incidents.addRecipients([
                    IncidentRecipient(incidentID: sos.id, userID: bob.id, at: at(1)),
                    IncidentRecipient(incidentID: other.id, userID: bob.id, at: at(2)),
                ])
            }
            let rows = try await store.read { try await $0.incidents.recipientRows([sos.id, other.id]) }
            #expect(rows.map(\.incidentID) == [sos.id, other.id])
            #expect(rows.map(\.userID) == [bob.id, bob.id])
            #expect(rows.first.map { [$0.firstName, $0.lastName] } == ["Bob", "Smith"])
            #expect(rows.first?.firstNotifiedAt == at(1))

            let found = try await store.read { try await $0.incidents.alertDeliveries(incidents: [sos.id, other.id]) }
            let bySOS = found.filter { $0.incidentID == sos.id }.map(\.delivery.id)
            #expect(bySOS == [deliveries[0].id, deliveries[1].id])  // not Ann's own, not the acknowledgement
            #expect(found.filter { $0.incidentID == other.id }.map(\.delivery.id) == [deliveries[4].id])
            #expect(try await store.read { try await $0.incidents.alertDeliveries(incidents: []) }.isEmpty)
        }
    }
}
