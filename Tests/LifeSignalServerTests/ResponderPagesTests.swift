import Foundation
import Hummingbird
import HummingbirdTesting
@_spi(Testing) import LifeSignalCore
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@testable import LifeSignalServer

/// The pages about another person, at the worst moment: both clocks, the deadline she missed
/// (not the alarm time), who will be alerted during grace, and "Ada is safe" when it ends.
@Suite struct ResponderPagesTests {
    static let ada = "+34612345678", bob = "+12025550143"

    /// Ada in Madrid, Bob in New York, Bob watching over Ada; returns their session tokens and Ada's id.
    static func adaInMadridBobInNewYork(
        _ world: TestWorld, _ client: any TestClientProtocol
    ) async throws -> (ada: String, bob: String, adaID: String) {
        let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: Self.ada)
        let (bob, _) = try await client.signUp(world, first: "Bob", phone: Self.bob)
        _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(timeZone: "Europe/Madrid"))
        _ = try await client.call(Operations.updateProfile, token: bob, json: ProfileChanges(timeZone: "America/New_York"))
        try await client.link(responder: bob, dependent: ada)
        // Her period starts now (09:00 in Madrid): the deadline is tomorrow at 09:00 her time.
        _ = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID())))
        return (ada, bob, adaUser.id.description)
    }

    static func page(_ client: any TestClientProtocol, _ path: String, _ token: String) async throws -> String {
        try await client.execute(uri: path, method: .get, headers: [.cookie: "ls_session=\(token)"]) { String(buffer: $0.body) }
    }

    @Test func aMissedCheckInIsToldInBothClocksWithTheDeadlineSheMissed() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, bob, _) = try await Self.adaInMadridBobInNewYork(world, client)
            // Past her deadline, inside the 10-minute grace: she is told when, and who.
            world.clock.advance(by: 24 * 3600 + 60)
            let grace = try await Self.page(client, "/", ada)
            #expect(grace.contains("check in by today at 09:10, we alert Bob Tester."), "\(grace)")
            world.clock.advance(by: 15 * 60)
            _ = try await EscalationEngine(core: world.core, instance: "test").runPass()
            // Bob's Home: her 09:00 deadline in her clock and his, not the moment the alert went out.
            let home = try await Self.page(client, "/", bob)
            #expect(home.contains("Missed the check-in due today at 09:00 their time (03:00 yours)"), "\(home)")
            #expect(!home.contains("09:16"))
        }
    }

    @Test func nobodyToAlertIsSaidDuringGrace() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: Self.ada)
            world.clock.advance(by: 24 * 3600 + 60)
            let grace = try await Self.page(client, "/", ada)
            #expect(grace.contains("Nobody is set up to be alerted about you"))
            #expect(!grace.contains("we alert"))
        }
    }

    @Test func theResponderIsToldSheIsSafeAndNobodyIsOnItAfterwards() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, bob, adaID) = try await Self.adaInMadridBobInNewYork(world, client)
            world.clock.advance(by: 24 * 3600 + 11 * 60)
            _ = try await EscalationEngine(core: world.core, instance: "test").runPass()
            let status = try await client.call(Operations.getContactStatus, ["id": adaID], token: bob).decode(CheckInStatus.self)
            let incident = try #require(status.openIncident)
            #expect(status.timeZone == "Europe/Madrid")
            #expect(incident.dueAt == TestWorld.start.addingTimeInterval(24 * 3600))
            _ = try await client.call(Operations.acknowledgeIncident, ["id": incident.id.description], token: bob)
            world.clock.advance(by: 9 * 60)
            _ = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID())))

            let home = try await Self.page(client, "/", bob)
            #expect(home.contains("Ada Tester is safe"), "\(home)")
            #expect(home.contains("Ada Tester checked in today at 09:20 their time (03:20 yours)."))
            #expect(!home.contains("takeover-"))
            let page = try await Self.page(client, "/incidents/\(incident.id)", bob)
            #expect(page.contains("Ada is safe — they checked in today at 09:20 their time (03:20 yours)."), "\(page)")
            #expect(!page.contains("is on it"))
            #expect(!page.contains("call-emergency"))

            // Seen: the card goes; the notification is read.
            let notifications = try await client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self)
            let allClear = try #require(notifications.items.first { $0.type == .incidentResolved })
            let seen = try await client.execute(
                uri: "/all-clear/\(allClear.id)/seen", method: .post,
                headers: [.cookie: "ls_session=\(bob)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(try await Self.csrf(client, bob))")
            ) { $0.status }
            #expect(seen == .seeOther || seen == .found)
            #expect(!(try await Self.page(client, "/", bob)).contains("Ada Tester is safe"))
        }
    }

    @Test func anOpenAlertPageOffersTheEmergencyNumberOfHerCountry() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, bob, adaID) = try await Self.adaInMadridBobInNewYork(world, client)
            _ = try await client.call(Operations.raiseAlert, token: ada)
            let status = try await client.call(Operations.getContactStatus, ["id": adaID], token: bob).decode(CheckInStatus.self)
            let id = try #require(status.openIncident?.id)
            let his = try await Self.page(client, "/incidents/\(id)", bob)
            #expect(his.contains(#"href="tel:112" id="call-emergency""#), "\(his)")
            #expect(his.contains(#"(where you are: <a href="tel:911">911</a>)"#))
            let hers = try await Self.page(client, "/incidents/\(id)", ada)
            #expect(hers.contains(#"href="tel:112" id="call-emergency""#))
            #expect(!hers.contains("where you are"))
        }
    }

    /// Sealed details are on no page until a responder asks, and then only on that answer; she
    /// sees who read them.
    @Test func sealedDetailsAreShownOnlyWhenAResponderOpensThem() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, bob, adaID) = try await Self.adaInMadridBobInNewYork(world, client)
            let secret = "Key under the blue pot\nDoor code 4711"
            _ = try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(sealedDetails: secret))
            _ = try await client.call(Operations.raiseAlert, token: ada)
            let status = try await client.call(Operations.getContactStatus, ["id": adaID], token: bob).decode(CheckInStatus.self)
            let id = try #require(status.openIncident?.id)
            let before = try await Self.page(client, "/incidents/\(id)", bob)
            #expect(before.contains(#"id="open-sealed""#))
            #expect(!before.contains("blue pot"))
            let opened = try await client.execute(
                uri: "/incidents/\(id)/sealed-details", method: .post,
                headers: [.cookie: "ls_session=\(bob)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(try await Self.csrf(client, bob))")
            ) { ($0.status, $0.headers[.cacheControl], String(buffer: $0.body)) }
            #expect(opened.0 == .ok)
            #expect(opened.1 == "no-store")
            #expect(opened.2.contains(#"<p class="sealed-text">Key under the blue pot"#))
            #expect(opened.2.contains("Door code 4711"))
            // Not kept anywhere a later look would find it.
            #expect(!(try await Self.page(client, "/incidents/\(id)", bob)).contains("blue pot"))
            let hers = try await client.call(Operations.listNotifications, token: ada).decode(NotificationPage.self)
            #expect(hers.items.contains { $0.type == .sealedDetailsRead && $0.title == "Bob Tester read your sealed details" })
        }
    }

    @Test func someoneWhoOnlyWatchesIsNeverOverdueAndHasNoCheckInButton() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _, _) = try await Self.adaInMadridBobInNewYork(world, client)
            let (wes, _) = try await client.signUp(world, first: "Wes", phone: "+447700900777")
            _ = try await client.call(Operations.updateProfile, token: wes, json: ProfileChanges(watchOnly: true))
            try await client.link(responder: wes, dependent: ada)
            world.clock.advance(by: 8 * 86400)
            _ = try await EscalationEngine(core: world.core, instance: "test").runPass()
            let status = try await client.call(Operations.getStatus, token: wes).decode(CheckInStatus.self)
            #expect(status.state == .watching)
            let home = try await Self.page(client, "/", wes)
            #expect(!home.contains(#"id="check-in""#))
            #expect(!home.contains("Nobody is watching over you"))
            #expect(home.contains(#"<section class="card watched""#))
            // The people he watches over come before his own (watch-only) status.
            let watched = try #require(home.range(of: #"id="watched""#)), own = try #require(home.range(of: #"id="status""#))
            #expect(watched.lowerBound < own.lowerBound)
            let notifications = try await client.call(Operations.listNotifications, token: wes).decode(NotificationPage.self)
            #expect(!notifications.items.contains { [.reminder, .nonResponsive].contains($0.type) })
        }
    }

    static func csrf(_ client: any TestClientProtocol, _ token: String) async throws -> String {
        let home = try await page(client, "/", token)
        let marker = #"name="csrf-token" content=""#
        let start = try #require(home.range(of: marker)).upperBound
        return String(home[start...].prefix { $0 != "\"" })
    }
}
