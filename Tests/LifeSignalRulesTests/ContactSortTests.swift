import Foundation
import LifeSignalModels
import Testing

@testable import LifeSignalRules

@Suite("Contact sorting")
struct ContactSortTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func contact(
        _ name: String, state: CheckInStatus.State = .ok, left: Int = 3600, pinged: Bool = false, incoming: Bool = false, added: Double = 0
    ) -> Contact {
        let id = UserID(UUID())
        let me = UserID(UUID())
        return Contact(
            userID: id, firstName: name, lastName: "X", phone: "+15555550100", emergencyNote: "", hasAvatar: false,
            roles: [.dependent, .responder], addedAt: now.addingTimeInterval(added),
            status: CheckInStatus(
                userID: id, lastCheckInAt: nil, deadline: now, secondsLeft: left, state: state, pausedUntil: nil, openIncident: nil),
            outgoingPing: pinged ? Ping(id: PingID(UUID()), fromUserID: me, toUserID: id, sentAt: now) : nil,
            incomingPing: incoming ? Ping(id: PingID(UUID()), fromUserID: id, toUserID: me, sentAt: now) : nil)
    }

    @Test func dependentsByUrgency() {
        let list = [
            contact("Fine", left: 9000), contact("Soon", left: 60), contact("Pinged", pinged: true),
            contact("Late", state: .nonResponsive, left: -10), contact("SOS", state: .alert),
        ]
        #expect(ContactSort.urgency.dependents(list).map(\.firstName) == ["SOS", "Late", "Pinged", "Soon", "Fine"])
    }

    @Test func alternativesByNameAndDateAdded() {
        let list = [contact("bea", added: 3), contact("Ann", added: 2), contact("Cy", added: 1)]
        #expect(ContactSort.name.dependents(list).map(\.firstName) == ["Ann", "bea", "Cy"])
        #expect(ContactSort.dateAdded.dependents(list).map(\.firstName) == ["Cy", "Ann", "bea"])
    }

    @Test func respondersWithPendingPingsFirst() {
        let list = [contact("Ann"), contact("Zed", incoming: true), contact("Bo")]
        #expect(ContactSort.urgency.responders(list).map(\.firstName) == ["Zed", "Ann", "Bo"])
    }
}
