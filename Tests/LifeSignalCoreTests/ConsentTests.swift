import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Nobody watches anyone without their yes; responders' powers have limits; nothing that
/// notifies someone else can be looped.
struct ConsentTests {
    struct Wording: Sendable, CustomTestStringConvertible {
        var roles: ContactRoles
        var title: String
        var body: String
        var testDescription: String { title }
    }

    static let wordings = [
        Wording(
            roles: .responder, title: "Ada Tester asks you to watch over them",
            body:
                "Ada Tester asks you to watch over them: you would see their status and get their alerts. Nothing is shared until you accept."
        ),
        Wording(
            roles: .dependent, title: "Ada Tester asks to watch over you",
            body: "Ada Tester asks to watch over you: they would see your status and get your alerts. Nothing is shared until you accept."),
        Wording(
            roles: [.responder, .dependent], title: "Ada Tester asks that you watch over each other",
            body:
                "Ada Tester asks that you watch over each other: each of you would see the other's status and get their alerts. Nothing is shared until you accept."
        ),
    ]

    @Test("every request says who would watch whom, and nothing flows until it is accepted", arguments: wordings)
    func requestWording(_ wording: Wording) async throws {
        let (roles, title, body) = (wording.roles, wording.title, wording.body)
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900101")
        let bob = try await world.signUp("Bob", phone: "+447700900102")
        let request = try await world.contacts.addContact(ada, code: bob.user.contactCode, roles: roles)
        #expect(request.state == .pending)
        let told = try #require(try await world.notifications(bob).first { $0.type == .contactRequested })
        #expect(told.title == title)
        #expect(told.body == body)
        // Before Bob answers, neither sees the other at all.
        #expect(try await world.contacts.contacts(ada) == ContactLists(responders: [], dependents: []))
        #expect(try await world.contacts.contacts(bob) == ContactLists(responders: [], dependents: []))
        await #expect(throws: ServiceError.self) { try await world.checkIns.status(ada, of: bob.user.id) }
        await #expect(throws: ServiceError.self) { try await world.checkIns.status(bob, of: ada.user.id) }

        let contact = try await world.contacts.acceptContactRequest(bob, id: request.id, roles: request.roles)
        #expect(contact.roles == roles.mirrored)
        let accepted = try #require(try await world.notifications(ada).first { $0.type == .contactRequestAccepted })
        #expect(accepted.title == "Bob Tester accepted your request")
        var expected: [String] = []
        if roles.isResponder { expected.append("Bob Tester watches over you: they see your status and get your alerts.") }
        if roles.isDependent { expected.append("You watch over Bob Tester: you see their status and get their alerts.") }
        #expect(accepted.body == expected.joined(separator: " "))
        #expect(try await world.contacts.contacts(ada).responders.isEmpty == !roles.isResponder)
        // Answered once only.
        let again = await #expect(throws: ServiceError.self) {
            try await world.contacts.acceptContactRequest(bob, id: request.id, roles: request.roles)
        }
        #expect(again?.code == .requestAnswered)
    }

    @Test func onlyTheRecipientAcceptsAndADeclineIsQuiet() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900103")
        let bob = try await world.signUp("Bob", phone: "+447700900104")
        let eve = try await world.signUp("Eve", phone: "+447700900105")
        let request = try await world.contacts.addContact(eve, code: ada.user.contactCode, roles: .dependent)
        for outsider in [eve, bob] {
            let error = await #expect(throws: ServiceError.self) {
                try await world.contacts.acceptContactRequest(outsider, id: request.id, roles: request.roles)
            }
            #expect(error?.code == .requestNotFound)
        }
        let declined = try await world.contacts.declineContactRequest(ada, id: request.id)
        #expect(declined.state == .declined)
        #expect(try await world.notifications(eve).isEmpty)
        // Eve cannot pester Ada with a new request for a day.
        let soon = await #expect(throws: ServiceError.self) {
            try await world.contacts.addContact(eve, code: ada.user.contactCode, roles: .dependent)
        }
        #expect(soon?.kind == .rateLimited)
        #expect(soon?.retryAfter == 86_400)
        world.clock.advance(by: 86_401)
        let later = try await world.contacts.addContact(eve, code: ada.user.contactCode, roles: .dependent)
        // The sender may withdraw their own request.
        #expect(try await world.contacts.declineContactRequest(eve, id: later.id).state == .cancelled)
        #expect(try await world.contacts.contactRequests(ada).incoming.allSatisfy { !$0.isPending })
    }

    @Test func aDependentCannotMakeItselfAResponder() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900106")
        let dan = try await world.signUp("Dan", phone: "+447700900107")
        // Ada watches over Dan.
        try await world.link(responder: ada, dependent: dan)
        let widened = try await world.contacts.updateRoles(dan, contact: ada.user.id, roles: [.responder, .dependent])
        #expect(widened.roles == .responder)
        #expect(widened.pendingRequest?.roles == .dependent)
        await #expect(throws: ServiceError.self) { try await world.checkIns.status(dan, of: ada.user.id) }
        #expect(try await world.contacts.contacts(ada).responders.isEmpty)
        // (Notices of one instant have no fixed order: look for it rather than take the newest.)
        #expect(
            try await world.notifications(ada).contains { $0.type == .contactRequested && $0.title == "Dan Tester asks to watch over you" })

        // Taking a role off is immediate, and the notice says it from the reader's side (the
        // role Ada asks for instead is a request Dan has not accepted).
        _ = try await world.contacts.updateRoles(ada, contact: dan.user.id, roles: .responder)
        let told = try #require(try await world.notifications(dan).first { $0.type == .contactRemoved })
        #expect(told.title == "Ada Tester removed you")
        #expect(
            told.body
                == "Ada Tester no longer watches over you: they no longer see your status or get your alerts. You are no longer linked.")
        #expect(try await world.contacts.contacts(dan).responders.isEmpty)
    }

    @Test func aResponderChecksInOnlyForSomeoneOverdueAndEveryoneIsTold() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900108")
        let bob = try await world.signUp("Bob", phone: "+447700900109")
        let cy = try await world.signUp("Cy", phone: "+447700900110")
        try await world.link(responder: bob, dependent: ada)
        try await world.link(responder: cy, dependent: ada)
        let early = await #expect(throws: ServiceError.self) {
            try await world.incidents.checkInOnBehalf(bob, of: ada.user.id, id: CheckInID(UUID()))
        }
        #expect(early?.code == .notOverdue)
        // Past her deadline (24 h from sign-up) she is non-responsive: now Bob may.
        world.clock.advance(by: 86_400 + 60)
        let result = try await world.incidents.checkInOnBehalf(bob, of: ada.user.id, id: CheckInID(UUID()))
        #expect(result.checkIn.recordedBy == bob.user.id)
        #expect(try await world.notifications(ada).contains { $0.title == "Bob Tester checked in for you" })
        #expect(try await world.notifications(cy).contains { $0.title == "Bob Tester checked in for Ada Tester" })
    }

    @Test func anSOSIsItsOwnersToClearUnlessTheResponderIsOnIt() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900111")
        let bob = try await world.signUp("Bob", phone: "+447700900112")
        let cy = try await world.signUp("Cy", phone: "+447700900113")
        try await world.link(responder: bob, dependent: ada)
        try await world.link(responder: cy, dependent: ada)
        let sos = try await world.incidents.raiseAlert(ada)
        let refused = await #expect(throws: ServiceError.self) { try await world.incidents.resolveIncident(bob, incident: sos.id) }
        #expect(refused?.code == .acknowledgeFirst)
        _ = try await world.incidents.acknowledge(cy, incident: sos.id)
        // Cy's claim does not let Bob resolve it.
        await #expect(throws: ServiceError.self) { try await world.incidents.resolveIncident(bob, incident: sos.id) }
        let resolved = try await world.incidents.resolveIncident(cy, incident: sos.id)
        #expect(resolved.resolvedBy == cy.user.id)
        #expect(
            try await world.notifications(bob).contains {
                $0.type == .incidentResolved && $0.body.hasPrefix("Cy Tester resolved the alert today at ")
            })
    }

    @Test func pingsAreLimitedPerPairButAnSOSNeverIs() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900114")
        let bob = try await world.signUp("Bob", phone: "+447700900115")
        try await world.link(responder: bob, dependent: ada)
        for _ in 0..<6 {
            let ping = try await world.pings.ping(bob, dependent: ada.user.id)
            try await world.pings.clearPing(bob, id: ping.id)
        }
        let looped = await #expect(throws: ServiceError.self) { try await world.pings.ping(bob, dependent: ada.user.id) }
        #expect(looped?.kind == .rateLimited)
        #expect(looped?.code == .tooManyPings)
        #expect((looped?.retryAfter ?? 0) > 0)
        let pingsToAda = try await world.notifications(ada).filter { $0.type == .pingReceived }.count
        #expect(pingsToAda == 6)
        for _ in 0..<20 {
            _ = try await world.incidents.raiseAlert(ada)
            _ = try await world.incidents.clearAlert(ada)
        }
        world.clock.advance(by: 3_600)
        _ = try await world.pings.ping(bob, dependent: ada.user.id)
    }

    @Test func contactRequestsAreLimitedPerSender() async throws {
        var configuration = ServiceConfiguration()
        configuration.limits.contactRequests = .init(perUser: 3, perPair: 2, window: 3_600)
        let world = try await TestWorld(configuration: configuration)
        let eve = try await world.signUp("Eve", phone: "+447700900116")
        var targets: [Caller] = []
        for (n, name) in ["Tam", "Tia", "Tod", "Tux"].enumerated() {
            targets.append(try await world.signUp(name, phone: "+44770090012\(n)"))
        }
        for target in targets.prefix(3) {
            _ = try await world.contacts.addContact(eve, code: target.user.contactCode, roles: .dependent)
        }
        let fourth = await #expect(throws: ServiceError.self) {
            try await world.contacts.addContact(eve, code: targets[3].user.contactCode, roles: .dependent)
        }
        #expect(fourth?.code == .tooManyContactRequests)
        #expect(try await world.notifications(targets[3]).isEmpty)
    }
}
