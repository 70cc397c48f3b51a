import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalStore
import LifeSignalTestSupport
import Testing

/// The person in trouble is told the truth: who was alerted, how each alert went, who is on
/// it; "told" only when a delivery worked.
@Suite("Help is coming")
struct HelpIsComingTests {
    /// Ada watched over by Bob and Cy (as in the escalation tests), with no channels: every
    /// alert goes to the server's default channel (`log`) at their number.
    func scenario() async throws -> (TestWorld, Caller, Caller, Caller) {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900100")
        let bob = try await world.signUp("Bob", phone: "+447700900101")
        let cy = try await world.signUp("Cy", phone: "+447700900102")
        try await world.link(responder: bob, dependent: ada)
        world.clock.advance(by: 1)  // Bob first, then Cy: the order they are named in
        try await world.link(responder: cy, dependent: ada)
        return (world, ada, bob, cy)
    }

    /// Claims every due delivery and records `outcome` for those `which` selects; the others
    /// stay claimed by this courier for a later call.
    final class Courier: @unchecked Sendable {
        let world: TestWorld
        let outbox: StoreOutbox
        var held: [OutboxItem] = []

        init(_ world: TestWorld) {
            self.world = world
            outbox = StoreOutbox(core: world.core)
        }

        func deliver(_ outcome: AttemptOutcome, where which: (OutboxItem) -> Bool = { _ in true }) async throws -> [OutboxItem] {
            let now = world.clock.now
            held += try await outbox.claimDue(now: now, limit: 100, owner: "test", leaseUntil: now.addingTimeInterval(3600))
            let chosen = held.filter(which)
            held.removeAll(where: which)
            try await outbox.record(chosen.map { AttemptRecord(deliveryID: $0.message.deliveryID, outcome: outcome, at: now) })
            return chosen
        }
    }

    @Test func theSOSTellsThePersonWhoWasAlertedAndWhoIsOnIt() async throws {
        let (world, ada, bob, cy) = try await scenario()
        let courier = Courier(world)
        let incident = try await world.incidents.raiseAlert(ada)
        let alerted = try #require(try await world.notifications(ada).first { $0.type == .alertSent })
        #expect(alerted.title == "Bob Tester and Cy Tester have been alerted")
        #expect(alerted.incidentID == incident.id)

        // The status names both, with their alert on the default channel still queued.
        var status = try await world.checkIns.status(ada)
        // Told at the same instant here (the test clock stands still): in no particular order.
        var responders = try #require(status.openIncident?.responders).sorted { $0.name < $1.name }
        #expect(responders.map(\.name) == ["Bob Tester", "Cy Tester"])
        #expect(responders.allSatisfy { $0.deliveries.map(\.channel) == [.log] && $0.reach == .trying })

        // Bob's text gets through; Cy's does not (nothing else to try).
        _ = try await courier.deliver(.delivered(providerID: nil)) { $0.message.recipientID == bob.user.id }
        _ = try await courier.deliver(.failed(reason: "The number could not be reached.")) { $0.message.recipientID == cy.user.id }
        status = try await world.checkIns.status(ada)
        responders = try #require(status.openIncident?.responders).sorted { $0.name < $1.name }
        #expect(responders.map(\.reach) == [.reached, .unreachable])
        #expect(responders[1].deliveries.first?.reason == "The number could not be reached.")

        // Bob says "I'm on it": Ada is told by name, and her status says since when.
        world.clock.advance(by: 120)
        _ = try await world.incidents.acknowledge(bob, incident: incident.id)
        let onIt = try #require(try await world.notifications(ada).first { $0.type == .incidentAcknowledged })
        #expect(onIt.title == "Bob Tester is on it")
        #expect(onIt.body == "Bob Tester said “I'm on it” today at 08:02.")
        #expect(!onIt.body.contains("2026-"))  // never an ISO timestamp
        status = try await world.checkIns.status(ada)
        #expect(status.openIncident?.acknowledgedByName == "Bob Tester")
        #expect(status.openIncident?.acknowledgedAt == world.clock.now)
        #expect(status.openIncident?.responders?.first { $0.userID == bob.user.id }?.acknowledgedAt == world.clock.now)
        #expect(status.openIncident?.responders?.first { $0.userID == cy.user.id }?.acknowledgedAt == nil)
        // Cy, a responder, sees the same progress.
        #expect(try await world.checkIns.status(cy, of: ada.user.id).openIncident?.responders?.count == 2)
    }

    @Test func nobodyWatchingIsSaidPlainly() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900100")
        _ = try await world.incidents.raiseAlert(ada)
        let notice = try #require(try await world.notifications(ada).first)
        #expect(notice.title == "Nobody is watching over you yet")
        #expect(notice.body.contains("add a responder so someone is told"))
        #expect(try await world.checkIns.status(ada).openIncident?.responders == [])
    }

    @Test func aLapsedClaimIsToldToThePerson() async throws {
        let (world, ada, bob, _) = try await scenario()
        let engine = EscalationEngine(core: world.core, instance: "test")
        let incident = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.acknowledge(bob, incident: incident.id)
        world.clock.advance(by: 3 * 3600)
        #expect(try await engine.runPass().claimsExpired == 1)
        let lapsed = try #require(try await world.notifications(ada).first)
        #expect(lapsed.title == "Bob Tester has not resolved your alert yet")
        #expect(try await world.checkIns.status(ada).openIncident?.acknowledgedBy == nil)
    }

    @Test func anEmailOnlyResponderFallsBackToTheVerifiedNumber() async throws {
        let (world, ada, bob, cy) = try await scenario()
        let courier = Courier(world)
        let ada8h = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: .interval(seconds: 8 * 3600)))
        try await world.addProvedChannel(cy, ChannelRegistration(kind: .email, address: "cy@example.com"))
        let engine = EscalationEngine(core: world.core, instance: "test")
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        #expect(ada8h.schedule.nominalSeconds == 8 * 3600)
        // What linking them sent is out of the way.
        _ = try await courier.deliver(.delivered(providerID: nil))
        // Past the deadline and the grace: a missed check-in opens (one channel at a time).
        world.clock.advance(by: 8 * 3600 + 11 * 60)
        try await engine.runUntilIdle()
        let toCy: (OutboxItem) -> Bool = { $0.message.recipientID == cy.user.id && $0.message.kind == .incidentOpened }
        let first = try await courier.deliver(.failed(reason: "The mail server refused the message."), where: toCy)
        #expect(first.map(\.message.channel) == [.email])
        // The e-mail failed: the default channel to Cy's verified number is queued next.
        let fallback = try await courier.deliver(.delivered(providerID: nil), where: toCy)
        #expect(fallback.map(\.message.channel) == [.log])
        #expect(fallback.map(\.message.address) == [cy.user.phone])
        let cyProgress = try #require(
            try await world.checkIns.status(ada).openIncident?.responders?.first { $0.userID == cy.user.id })
        #expect(cyProgress.deliveries.map(\.channel) == [.email, .log])
        #expect(cyProgress.deliveries.map(\.status) == [.failed, .delivered])
        #expect(cyProgress.reach == .reached)
        // Cy was reached: nobody is told otherwise.
        #expect(try await world.notifications(bob).allSatisfy { $0.type != .deliveryFailed })
    }

    @Test func aResponderNobodyCouldReachIsSaidOnce() async throws {
        let (world, ada, bob, cy) = try await scenario()
        let courier = Courier(world)
        _ = try await world.channels.addChannel(cy, ChannelRegistration(kind: .email, address: "cy@example.com"))
        let incident = try await world.incidents.raiseAlert(ada)
        // An SOS goes out on every channel at once: the e-mail and the verified number.
        let cyFirst = try await courier.deliver(.failed(reason: "The mail server refused the message.")) {
            $0.message.recipientID == cy.user.id && $0.message.channel == .email
        }
        #expect(cyFirst.count == 1)
        #expect(try await world.notifications(ada).allSatisfy { $0.type != .deliveryFailed })
        _ = try await courier.deliver(.failed(reason: "The number could not be reached.")) {
            $0.message.recipientID == cy.user.id
        }
        let told = try await world.notifications(ada).filter { $0.type == .deliveryFailed }
        #expect(told.map(\.title) == ["We could not reach Cy Tester"])
        #expect(told.first?.incidentID == incident.id)
        #expect(
            try await world.notifications(bob).filter { $0.type == .deliveryFailed }.map(\.title)
                == ["We could not reach Cy Tester"])
        #expect(try await world.notifications(cy).allSatisfy { $0.type != .deliveryFailed })
        let timeline = try await world.timeline.timeline(ada)
        #expect(timeline.filter { $0.kind == "unreachable" }.count == 1)
        #expect(try await world.timeline.verifyTimeline(ada).valid)
    }
}
