import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("Check-ins, contacts, pings and alerts")
struct CheckInAndContactTests {
    @Test func checkInIsIdempotentByClientID() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900010")
        let id = CheckInID(UUID())
        world.clock.advance(by: 3600)
        let first = try await world.checkIns.checkIn(ada, id: id, clientAt: nil, source: .app)
        world.clock.advance(by: 60)
        let again = try await world.checkIns.checkIn(ada, id: id, clientAt: nil, source: .app)
        #expect(!first.duplicate)
        #expect(again.duplicate)
        #expect(again.checkIn.at == first.checkIn.at)
        #expect(first.status.deadline == TestWorld.start.addingTimeInterval(3600 + 86400))
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 10).count == 1)
    }

    @Test func linksMirrorRolesAndRefuseDuplicatesAndSelf() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900011")
        let bob = try await world.signUp("Bob", phone: "+447700900012")
        let preview = try await world.contacts.lookUpContactCode(ada, code: "lifesignal://contact/\(bob.user.contactCode)")
        #expect(preview.firstName == "Bob")
        let request = try await world.contacts.addContact(ada, code: bob.user.contactCode, roles: .responder)
        #expect(try await world.contacts.contacts(bob).dependents.isEmpty)
        _ = try await world.contacts.acceptContactRequest(bob, id: request.id, roles: request.roles)
        let bobs = try await world.contacts.contacts(bob)
        #expect(bobs.dependents.map(\.firstName) == ["Ada"])
        #expect(bobs.dependents.first?.status != nil)
        #expect(try await world.contacts.contacts(ada).responders.map(\.firstName) == ["Bob"])
        let duplicate = await #expect(throws: ServiceError.self) {
            try await world.contacts.addContact(ada, code: bob.user.contactCode, roles: .responder)
        }
        #expect(duplicate?.code == .alreadyLinked)
        let own = await #expect(throws: ServiceError.self) {
            try await world.contacts.addContact(ada, code: ada.user.contactCode, roles: .dependent)
        }
        #expect(own?.code == .ownCode)
        let none = await #expect(throws: ServiceError.self) { try await world.contacts.updateRoles(ada, contact: bob.user.id, roles: []) }
        #expect(none?.kind == .invalid)
        #expect(try await world.notifications(bob).map(\.type) == [.contactRequested])
        #expect(try await world.notifications(ada).map(\.type) == [.contactRequestAccepted])
    }

    @Test func rotatingTheCodeRetiresTheOldOne() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900013")
        let bob = try await world.signUp("Bob", phone: "+447700900014")
        let old = bob.user.contactCode
        _ = try await world.contacts.rotateContactCode(bob)
        let error = await #expect(throws: ServiceError.self) { try await world.contacts.lookUpContactCode(ada, code: old) }
        #expect(error?.code == .codeNotFound)
    }

    @Test func onlyResponderPingsAndAnsweringChecksIn() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900015")
        let bob = try await world.signUp("Bob", phone: "+447700900016")
        try await world.link(responder: bob, dependent: ada)
        let wrongWay = await #expect(throws: ServiceError.self) { try await world.pings.ping(ada, dependent: bob.user.id) }
        #expect(wrongWay?.code == .notADependent)
        let ping = try await world.pings.ping(bob, dependent: ada.user.id)
        let twice = await #expect(throws: ServiceError.self) { try await world.pings.ping(bob, dependent: ada.user.id) }
        #expect(twice?.code == .alreadyPinged)
        #expect(try await world.contacts.contacts(ada).responders.first?.incomingPing?.id == ping.id)
        world.clock.advance(by: 600)
        let answer = try await world.pings.answerPings(ada, id: ping.id, checkInID: CheckInID(UUID()))
        #expect(answer.checkIn.source == .pingAnswer)
        #expect(answer.checkIn.at == TestWorld.start.addingTimeInterval(600))
        #expect(try await world.notifications(bob).first?.type == .pingAnswered)
        #expect(try await world.contacts.contacts(bob).dependents.first?.outgoingPing == nil)
    }

    @Test func removingTheDependentRoleClearsTheOutstandingPing() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900017")
        let bob = try await world.signUp("Bob", phone: "+447700900018")
        try await world.link(responder: bob, dependent: ada)
        _ = try await world.pings.ping(bob, dependent: ada.user.id)
        // Bob drops watching Ada at once; asking her to watch him is a request she has not accepted.
        _ = try await world.contacts.updateRoles(bob, contact: ada.user.id, roles: .responder)
        #expect(try await world.contacts.contacts(ada).responders.isEmpty)
        #expect(try await world.contacts.contacts(bob).dependents.isEmpty)
        #expect(try await world.contacts.contactRequests(ada).incoming.first?.roles == .responder)
        #expect(try await world.notifications(ada).map(\.type).contains(.pingCleared))
        let answer = await #expect(throws: ServiceError.self) {
            try await world.pings.answerPings(ada, id: nil, checkInID: CheckInID(UUID()))
        }
        #expect(answer?.code == .noPendingPings)
    }

    @Test func manualAlertNotifiesRespondersAndClearingSaysSafe() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900019")
        let bob = try await world.signUp("Bob", phone: "+447700900020")
        try await world.link(responder: bob, dependent: ada)
        world.clock.advance(by: 60)
        let incident = try await world.incidents.raiseAlert(ada)
        #expect(incident.kind == .manualAlert)
        #expect(try await world.incidents.raiseAlert(ada).id == incident.id)
        #expect(try await world.checkIns.status(ada).state == .alert)
        #expect(try await world.contacts.contacts(bob).dependents.first?.status?.state == .alert)
        world.clock.advance(by: 60)
        _ = try await world.incidents.clearAlert(ada)
        #expect(try await world.notifications(bob).map(\.type).prefix(2) == [.manualAlertCleared, .manualAlert])
        #expect(try await world.checkIns.status(ada).state == .ok)
        let report = try await world.incidents.incidentReport(bob, id: incident.id)
        #expect(report.incident.resolution == .cleared)
        #expect(report.recipients.map(\.name) == ["Bob Tester"])
    }

    @Test func strangersSeeNothing() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900021")
        let eve = try await world.signUp("Eve", phone: "+447700900022")
        let incident = try await world.incidents.raiseAlert(ada)
        await #expect(throws: ServiceError.self) { try await world.checkIns.status(eve, of: ada.user.id) }
        await #expect(throws: ServiceError.self) { try await world.incidents.incidentReport(eve, id: incident.id) }
        await #expect(throws: ServiceError.self) { try await world.incidents.acknowledge(eve, incident: incident.id) }
        await #expect(throws: ServiceError.self) { try await world.profiles.avatar(eve, of: ada.user.id) }
    }

    @Test func deletingTheAccountRemovesLinksOnBothSides() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900023")
        let bob = try await world.signUp("Bob", phone: "+447700900024")
        try await world.link(responder: bob, dependent: ada)
        try await world.accounts.deleteAccount(ada)
        #expect(try await world.contacts.contacts(bob).dependents.isEmpty)
        await #expect(throws: ServiceError.self) { try await world.profiles.profile(ada) }
    }

    @Test func timelineIsChainedAndVerifies() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900025")
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        let entries = try await world.timeline.timeline(ada)
        #expect(entries.count >= 2)
        for (a, b) in zip(entries, entries.dropFirst()) { #expect(b.previousHash == a.hash) }
        #expect(try await world.timeline.verifyTimeline(ada).valid)
        var tampered = entries
        tampered[0].summary = "Something else"
        #expect(Timeline.verify(tampered).firstBadSequence == 1)
    }
}
