import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// A contact request never changes once sent: the person may have read it. Asking for more
/// withdraws it and sends a new one, and accepting names the roles the person saw, so nobody
/// grants what they never read.
struct RequestImmutabilityTests {
    @Test func wideningSendsANewRequestAndAcceptingNamesWhatWasSeen() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900120")
        let vic = try await world.signUp("Vic", phone: "+447700900121")
        // Vic asks Ada to watch over him; Ada reads it.
        let first = try await world.contacts.addContact(vic, code: ada.user.contactCode, roles: .responder)
        let seen = try #require(try await world.contacts.contactRequests(ada).incoming.first { $0.id == first.id })
        #expect(seen.roles == .responder)

        // Vic then asks for more: a new request, the one she read withdrawn and unchanged.
        let second = try await world.contacts.addContact(vic, code: ada.user.contactCode, roles: [.responder, .dependent])
        #expect(second.id != first.id)
        #expect(second.roles == [.responder, .dependent])
        let lists = try await world.contacts.contactRequests(ada)
        let withdrawn = try #require(lists.incoming.first { $0.id == first.id })
        #expect(withdrawn.state == .cancelled && withdrawn.roles == .responder)
        #expect(lists.incoming.filter(\.isPending).map(\.id) == [second.id])
        #expect(try await world.notifications(ada).filter { $0.type == .contactRequested }.count == 2)

        // Saying yes to what she read grants nothing.
        let gone = await #expect(throws: ServiceError.self) {
            try await world.contacts.acceptContactRequest(ada, id: first.id, roles: seen.roles)
        }
        #expect(gone?.code == .requestAnswered)
        let changed = await #expect(throws: ServiceError.self) {
            try await world.contacts.acceptContactRequest(ada, id: second.id, roles: seen.roles)
        }
        #expect(changed?.code == .requestChanged)
        #expect(try await world.contacts.contacts(ada) == ContactLists(responders: [], dependents: []))
        #expect(try await world.contacts.contactRequests(ada).incoming.first { $0.id == second.id }?.isPending == true)

        // Asking for what is already asked changes nothing.
        #expect(try await world.contacts.addContact(vic, code: ada.user.contactCode, roles: .responder).id == second.id)

        // Read again and accepted as it is, it links both ways.
        let linked = try await world.contacts.acceptContactRequest(ada, id: second.id, roles: [.responder, .dependent])
        #expect(linked.roles == [.responder, .dependent])
    }
}
