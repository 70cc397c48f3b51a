import Foundation
import LifeSignalAPI
@testable import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
@_spi(Testing) import LifeSignalStore
import Testing

/// Sealed details: the person's own to read and write; a responder's only while an alert about
/// her is open, when he opens them; every opening on her timeline and told to her; never in any
/// other answer or in any message but the `DETAILS` reply to the responder's own number.
@Suite("Sealed details")
struct SealedDetailsTests {
    static let secret = "Key under the blue pot, door code 4711, cat Mimi needs food"

    /// Ada (sealed details written), Bob her responder, Cy a stranger with an account.
    func scenario() async throws -> (TestWorld, Caller, Caller, Caller) {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900610")
        let bob = try await world.signUp("Bob", phone: "+447700900611")
        let cy = try await world.signUp("Cy", phone: "+447700900612")
        try await world.link(responder: bob, dependent: ada)
        let saved = try await world.profiles.updateProfile(ada, ProfileChanges(sealedDetails: "  \(Self.secret)\r\n"))
        #expect(!Self.json(saved).contains("blue pot"), "her profile answer carries no sealed details")
        return (world, try await world.refresh(ada), bob, cy)
    }

    @Test func theyOpenOnlyDuringAnOpenAlertAndEveryOpeningIsRecordedAndTold() async throws {
        let (world, ada, bob, cy) = try await scenario()
        // Hers at any time, trimmed.
        let own = try await world.sealedDetails.own(ada)
        #expect(own.details == Self.secret)
        #expect(own.updatedAt == world.clock.now)

        // Before any alert: the contact view, the answers and the history carry nothing.
        let contacts = try await world.contacts.contacts(bob, sort: .urgency)
        #expect(!Self.json(contacts).contains("blue pot"))
        #expect(try await world.core.replies(for: bob, "DETAILS").contains("No alert is open"))

        // An SOS: still nothing in the incident's report or any message.
        let sos = try await world.incidents.raiseAlert(ada)
        #expect(!Self.json(try await world.incidents.incidentReport(bob, id: sos.id)).contains("blue pot"))

        // Strangers and the person's dependants cannot open them; her responder can.
        await #expect(throws: ServiceError.self) { try await world.sealedDetails.open(cy, incident: sos.id) }
        let opened = try await world.sealedDetails.open(bob, incident: sos.id, via: "api")
        #expect(opened.details == Self.secret)
        #expect(opened.userID == ada.user.id)
        // Opened again on a page: recorded again, told once.
        _ = try await world.sealedDetails.open(bob, incident: sos.id, via: "web")

        let history = try await world.timeline.timeline(ada)
        let reads = history.filter { $0.kind == "sealed_details_read" }
        #expect(reads.map(\.summary) == ["Bob Tester read the sealed details", "Bob Tester read the sealed details"])
        #expect(reads.allSatisfy { $0.detail.contains(bob.user.id.description) && $0.detail.contains(sos.id.description) })
        let told = try await world.notifications(ada).filter { $0.type == .sealedDetailsRead }
        #expect(told.count == 1)
        #expect(told.first?.title == "Bob Tester read your sealed details")
        #expect(try await world.timeline.verifyTimeline(ada).valid)

        // By text, to the responder's own number: recorded the same way.
        let reply = try await world.core.replies(for: bob, "details")
        #expect(reply == "Ada Tester's sealed details: \(Self.secret)")
        #expect(try await world.timeline.timeline(ada).filter { $0.kind == "sealed_details_read" }.count == 3)
        #expect(try await world.core.replies(for: cy, "DETAILS").contains("No alert is open"))

        // Over: closed again.
        _ = try await world.incidents.clearAlert(ada)
        await #expect(throws: ServiceError.self) { try await world.sealedDetails.open(bob, incident: sos.id) }
        #expect(try await world.core.replies(for: bob, "DETAILS").contains("No alert is open"))

        // Nowhere in what was sent or kept but her own row: notifications, deliveries and the
        // timeline hold no part of them.
        for table in ["notifications", "deliveries", "timeline", "users", "incidents"] {
            let rows = try await world.store.read { tx in try await tx.executor.query("SELECT * FROM \(table)", []) }
            #expect(!String(describing: rows).contains("blue pot"), "\(table) holds the sealed details")
        }
    }

    @Test func badInputIsRefusedAndChangesNothingAndEmptyRemovesThem() async throws {
        let (world, ada, _, _) = try await scenario()
        let before = try await world.timeline.timeline(ada).count
        await #expect(throws: ServiceError.self) {
            try await world.profiles.updateProfile(
                ada, ProfileChanges(firstName: "Adele", sealedDetails: String(repeating: "x", count: 2001)))
        }
        await #expect(throws: ServiceError.self) {
            try await world.profiles.updateProfile(ada, ProfileChanges(sealedDetails: "door\u{0007}code"))
        }
        #expect(try await world.sealedDetails.own(ada).details == Self.secret)
        #expect(try await world.refresh(ada).user.firstName == "Ada")
        #expect(try await world.timeline.timeline(ada).count == before)

        // The same text again records nothing; an empty one removes them, and says so.
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(sealedDetails: Self.secret))
        #expect(try await world.timeline.timeline(ada).count == before)
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(sealedDetails: ""))
        #expect(try await world.sealedDetails.own(ada) == SealedDetails(details: "", updatedAt: nil))
        #expect(try await world.timeline.timeline(ada).last?.summary == "Sealed details removed")
    }

    @Test func deletingTheAccountDeletesThem() async throws {
        let (world, ada, _, _) = try await scenario()
        try await world.accounts.deleteAccount(ada)
        let left = try await world.store.read { tx in
            try await tx.executor.queryFirst("SELECT COUNT(*) AS n FROM sealed_details")?.int("n")
        }
        #expect(left == 0)
    }

    static func json(_ value: some Encodable) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self)
    }
}

extension ServiceCore {
    /// The reply LifeSignal texts back to `caller`'s own number for `text`.
    fileprivate func replies(for caller: Caller, _ text: String) async throws -> String {
        try await Replies(self).receiveText(from: caller.user.phone, body: text, messageID: "SM\(UUID())") ?? ""
    }
}
