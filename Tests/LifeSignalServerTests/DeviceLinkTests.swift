import Foundation
import HTTPTypes
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import NIOCore
import Testing

/// Device check-in links over HTTP, on both databases: `/v1/me/devices` and `POST /d/{secret}`.
struct DeviceLinkTests {
    /// Makes a link for `token` and returns it with its secret (the address's last part).
    func makeLink(
        _ client: any TestClientProtocol, _ token: String, _ name: String, resolvesAlerts: Bool? = nil
    ) async throws -> (link: DeviceLink, secret: String) {
        let made = try await client.call(
            Operations.createDeviceLink, token: token, json: DeviceLinkBody(name: name, resolvesAlerts: resolvesAlerts))
        #expect(made.status == .created)
        let new = try made.decode(NewDeviceLink.self)
        let secret = try #require(new.url.split(separator: "/").last.map(String.init))
        return (new.link, secret)
    }

    typealias Answer = (status: HTTPResponse.Status, body: String, headers: HTTPFields)

    /// `POST /d/{secret}` with no sign-in, as a button would call it.
    func press(_ client: any TestClientProtocol, _ secret: String, method: HTTPRequest.Method = .post) async throws -> Answer {
        try await client.execute(uri: "/d/" + secret, method: method, headers: [:], body: nil) { response in
            (response.status, String(buffer: response.body), response.headers)
        }
    }

    func checkIns(_ client: any TestClientProtocol, _ token: String) async throws -> [CheckIn] {
        try await client.call(Operations.listCheckIns, token: token).decode([CheckIn].self)
    }

    @Test(arguments: TestBackend.all)
    func aLinkChecksHerInOnceAMinuteLabelledAndSaysNothingAboutHer(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900801")
            let (link, secret) = try await makeLink(client, ada, "  Front door button ")
            #expect(link.name == "Front door button")
            #expect(!link.resolvesAlerts)
            #expect(secret.hasPrefix("lsd_") && secret.count > 40)
            let before = try await checkIns(client, ada).count

            // 61 presses in one minute are one check-in, every one answered the same.
            for _ in 0..<61 {
                let pressed = try await press(client, secret)
                #expect(pressed.status == .ok)
                #expect(pressed.body == "OK\n")
            }
            var recorded = try await checkIns(client, ada)
            #expect(recorded.count == before + 1)
            #expect(recorded.first?.source == .device)
            #expect(recorded.first?.device == "Front door button")
            world.clock.advance(by: 61)
            #expect(try await press(client, secret).status == .ok)
            recorded = try await checkIns(client, ada)
            #expect(recorded.count == before + 2)

            // The list shows when it last counted, never the secret; the timeline names the link.
            let listed = try await client.call(Operations.listDeviceLinks, token: ada)
            #expect(try listed.decode([DeviceLink].self).map(\.lastUsedAt) == [world.clock.now])
            #expect(!String(decoding: listed.body, as: UTF8.self).contains(secret))
            let timeline = try await client.call(Operations.getTimeline, token: ada).decode([TimelineEntry].self)
            #expect(timeline.contains { $0.summary == "Checked in: Front door button" })
            #expect(timeline.contains { $0.summary == "Device check-in link added: Front door button" })
            #expect(!timeline.contains { $0.detail.contains(secret) })
        }
    }

    @Test(arguments: TestBackend.all)
    func unknownAndRevokedLinksAreOneNotFoundAndNoKeyOpensTheOtherDoor(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900811")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700900812")
            let (link, secret) = try await makeLink(client, ada, "Kitchen sensor")
            let before = try await checkIns(client, ada).count

            // Only POST checks in: a preview fetching the address changes nothing.
            #expect(try await press(client, secret, method: .get).status != .ok)
            #expect(try await checkIns(client, ada).count == before)

            // Bob can neither see nor revoke Ada's link.
            #expect(try await client.call(Operations.listDeviceLinks, token: bob).decode([DeviceLink].self).isEmpty)
            let bobRevokes = try await client.call(Operations.revokeDeviceLink, ["id": link.id.description], token: bob)
            #expect(bobRevokes.status == .notFound)
            #expect(bobRevokes.error?.code == .deviceLinkNotFound)
            #expect(try await press(client, secret).status == .ok)

            // A link's secret is no bearer token, and a session's token is no link.
            let asBearer = try await client.call(Operations.getStatus, token: secret)
            #expect(asBearer.status == .unauthorized)
            #expect(try await press(client, ada).status == .notFound)

            // Revoked: the same answer as a secret that never existed, at once.
            let unknown = try await press(client, "lsd_" + String(repeating: "A", count: 43))
            #expect(try await client.call(Operations.revokeDeviceLink, ["id": link.id.description], token: ada).status == .noContent)
            let revoked = try await press(client, secret)
            #expect(unknown.status == .notFound)
            #expect(revoked.status == unknown.status)
            #expect(revoked.body == unknown.body)
            // Headers alike too, but for the request's own id.
            func alike(_ headers: HTTPFields) -> [String] {
                headers.filter { $0.name.canonicalName != "x-request-id" }.map { "\($0.name): \($0.value)" }
            }
            #expect(alike(revoked.headers) == alike(unknown.headers))
            let again = try await client.call(Operations.revokeDeviceLink, ["id": link.id.description], token: ada)
            #expect(again.error?.code == .deviceLinkNotFound)
            #expect(try await client.call(Operations.listDeviceLinks, token: ada).decode([DeviceLink].self).isEmpty)
        }
    }

    @Test(arguments: TestBackend.all)
    func onlyHerSignedInDeviceMakesLinksAndNoMoreThanTen(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900821")
            for scope in [Session.Scope.checkIn, .full] {
                let token = try await client.call(
                    Operations.createAPIToken, token: ada, json: TokenNameBody(name: "script", scope: scope)
                ).decode(TokenResponse.self).token
                let refused = try await client.call(Operations.createDeviceLink, token: token, json: DeviceLinkBody(name: "x"))
                #expect(refused.status == .forbidden)
                #expect(refused.error?.code == (scope == .checkIn ? .tokenScope : .signInAgain))
            }
            for name in ["", "   ", String(repeating: "n", count: 61), "bell\u{7}"] {
                let refused = try await client.call(Operations.createDeviceLink, token: ada, json: DeviceLinkBody(name: name))
                #expect(refused.status == .badRequest)
                #expect(refused.error?.code == .invalidName)
            }
            for index in 1...DeviceLink.limit { _ = try await makeLink(client, ada, "Button \(index)") }
            let eleventh = try await client.call(Operations.createDeviceLink, token: ada, json: DeviceLinkBody(name: "one more"))
            #expect(eleventh.status == .conflict)
            #expect(eleventh.error?.code == .tooManyDeviceLinks)
            #expect(try await client.call(Operations.listDeviceLinks, token: ada).decode([DeviceLink].self).count == 10)
        }
    }

    @Test(arguments: TestBackend.all)
    func duringAMissedCheckInALinkIsActivityUnlessSheLetItEndTheAlert(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900831")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700900832")
            try await client.link(responder: bob, dependent: ada)
            let sensor = try await makeLink(client, ada, "Kitchen motion sensor")
            let button = try await makeLink(client, ada, "Front door button", resolvesAlerts: true)

            // She misses her check-in: the engine opens the alert.
            world.clock.advance(by: 3 * 86_400)
            let engine = EscalationEngine(core: world.core, instance: "devices")
            try await engine.runUntilIdle()
            let open = try await world.store.read { try await $0.incidents.openIncidents(of: adaUser.id) }
            let incident = try #require(open.first { $0.kind == .missedCheckIn })

            // The sensor fires: shown to Bob as activity, the alert stays open, nothing checked in.
            let checkInsBefore = try await checkIns(client, ada).count
            #expect(try await press(client, sensor.secret).status == .ok)
            let report = try await client.call(Operations.getIncident, ["id": incident.id.description], token: bob)
                .decode(IncidentReport.self)
            #expect(report.incident.isOpen)
            #expect(report.activity == [DeviceActivity(device: "Kitchen motion sensor", at: world.clock.now)])
            #expect(try await checkIns(client, ada).count == checkInsBefore)
            let timeline = try await client.call(Operations.getTimeline, token: ada).decode([TimelineEntry].self)
            #expect(timeline.contains { $0.summary == "Activity from Kitchen motion sensor, not confirmed: the alert stays open" })
            let page = try await ResponderPagesTests.page(client, "/incidents/\(incident.id)", bob)
            #expect(page.contains(#"id="device-activity""#) && page.contains("Kitchen motion sensor, "), "\(page)")
            #expect(page.contains("not confirmed by Ada"))

            // The button she allowed to end alerts does: a check-in, the alert resolved.
            #expect(try await press(client, button.secret).status == .ok)
            let after = try await client.call(Operations.getIncident, ["id": incident.id.description], token: bob)
                .decode(IncidentReport.self)
            #expect(!after.incident.isOpen)
            #expect(after.incident.resolution == .checkedIn)
            #expect(try await checkIns(client, ada).first?.device == "Front door button")
        }
    }

    @Test(arguments: TestBackend.all)
    func deletingTheAccountTakesHerLinksWithIt(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900851")
            let (_, secret) = try await makeLink(client, ada, "Front door button")
            #expect(try await press(client, secret).status == .ok)
            #expect(try await client.call(Operations.deleteAccount, token: ada).status == .noContent)
            #expect(try await press(client, secret).status == .notFound)
            let left = try await world.store.read { try await $0.deviceLinks.all(of: adaUser.id) }
            #expect(left.isEmpty)
        }
    }

    @Test func theWebPageShowsTheAddressOnceWithItsRecipesAndRevokes() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900841")
            let csrf = try await ResponderPagesTests.csrf(client, ada)
            @Sendable func post(_ path: String, _ fields: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(
                    uri: path, method: .post,
                    headers: [.cookie: "ls_session=\(ada)", .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "_csrf=\(csrf)&" + fields)
                ) { ($0.status, String(buffer: $0.body)) }
            }
            #expect(try await ResponderPagesTests.page(client, "/profile", ada).contains(#"href="/profile/devices""#))
            #expect(try await ResponderPagesTests.page(client, "/profile/devices", ada).contains(#"id="no-device-links""#))

            let (status, made) = try await post("/profile/devices", "name=Front+door+button")
            #expect(status == .ok)
            let url = try #require(made.firstMatch(of: /value="(http[^"]+\/d\/lsd_[^"]+)"/).map { String($0.1) })
            let secret = try #require(url.split(separator: "/").last.map(String.init))
            #expect(made.contains(#"id="device-qr" src="data:image/svg+xml;base64,"#))
            #expect(made.contains("curl -fsS -X POST \(url)") && made.contains("method: POST"))
            #expect(try await press(client, secret).status == .ok)

            // Listed without its address; revoked from the list, and the address stops at once.
            let list = try await ResponderPagesTests.page(client, "/profile/devices", ada)
            #expect(list.contains("Front door button") && !list.contains(secret))
            #expect(list.contains("Shown as activity"))
            let link = try #require(
                try await client.call(Operations.listDeviceLinks, token: ada).decode([DeviceLink].self).first)
            #expect(try await post("/profile/devices/\(link.id)/revoke", "").0 == .seeOther)
            #expect(try await press(client, secret).status == .notFound)
        }
    }
}
