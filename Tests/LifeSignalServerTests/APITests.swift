import Foundation
import HTTPTypes
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalServer
import LifeSignalTestSupport
import Testing

@Suite("The /v1 API")
struct APITests {
    @Test func everyAuthenticatedOperationRefusesAMissingOrBadToken() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let parameters = ["id": UUID().uuidString, "code": String(repeating: "a", count: 32)]
            for operation in Operations.all where operation.requiresAuth {
                for token in [nil, "ls_not_a_real_token"] {
                    let response = try await client.call(operation, parameters, token: token, raw: "{}")
                    #expect(response.status == .unauthorized, "\(operation) with token \(token ?? "none")")
                    #expect(response.error?.code == .unauthorized, "\(operation)")
                }
            }
        }
    }

    @Test func signInProfileAndSessions() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (token, user) = try await client.signUp(world, first: "Ada", phone: "+447700900001")
            #expect(user.firstName == "Ada")
            #expect(user.isOnboarded)

            let me = try await client.call(Operations.getProfile, token: token)
            #expect(try me.decode(User.self).id == user.id)

            let bad = try await client.call(Operations.updateProfile, token: token, json: ProfileChanges(firstName: "A"))
            #expect(bad.status == .badRequest)
            #expect(bad.error?.code == .invalidFirstName)
            #expect(try await client.call(Operations.getProfile, token: token).decode(User.self).firstName == "Ada")

            let apiToken = try await client.call(Operations.createAPIToken, token: token, json: TokenNameBody(name: "Shortcut"))
            #expect(apiToken.status == .created)
            let sessions = try await client.call(Operations.listSessions, token: token).decode([Session].self)
            #expect(Set(sessions.map(\.kind)) == [.session, .apiToken])

            let other = try apiToken.decode(TokenResponse.self)
            #expect(
                try await client.call(Operations.revokeSession, ["id": other.session.id.description], token: token).status == .noContent)
            #expect(try await client.call(Operations.getStatus, token: other.token).status == .unauthorized)

            #expect(try await client.call(Operations.signOut, token: token).status == .noContent)
            #expect(try await client.call(Operations.getProfile, token: token).status == .unauthorized)
        }
    }

    @Test func malformedBodiesAre400AndChangeNothing() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (token, _) = try await client.signUp(world, first: "Ada", phone: "+447700900002")
            let cases: [(any OperationDescription, String)] = [
                (Operations.checkIn, "not json"), (Operations.checkIn, "{}"), (Operations.checkIn, #"{"id":"nope"}"#),
                (Operations.updateProfile, #"{"schedule":{"kind":"weekly"}}"#),
                (Operations.updateProfile, #"{"graceMinutes":"ten"}"#),
                (Operations.addContact, #"{"code":"abc"}"#), (Operations.setPause, #"{"until":"tomorrow"}"#),
                (Operations.requestSignInCode, #"{"phone":"12345"}"#), (Operations.addChannel, #"{"kind":"email","address":"nope"}"#),
            ]
            for (operation, body) in cases {
                let response = try await client.call(operation, token: token, raw: body)
                #expect(response.status == .badRequest, "\(operation) \(body)")
                #expect(response.error?.message.isEmpty == false)
            }
            let empty = try await client.call(Operations.checkIn, token: token)
            #expect(empty.status == .badRequest)
            #expect(try await client.call(Operations.listCheckIns, token: token).decode([CheckIn].self).isEmpty)
            #expect(try await client.call(Operations.getProfile, token: token).decode(User.self).graceMinutes == 10)
            let badID = try await client.call(Operations.getContact, ["id": "not-a-uuid"], token: token)
            #expect(badID.status == .badRequest)
            let badQuery = try await client.call(Operations.listNotifications, query: "?category=spam", token: token)
            #expect(badQuery.status == .badRequest)
        }
    }

    @Test func checkInStatusAndHistory() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (token, _) = try await client.signUp(world, first: "Ada", phone: "+447700900003")
            let body = CheckInBody(id: CheckInID(UUID()), clientAt: world.clock.now)
            let first = try await client.call(Operations.checkIn, token: token, json: body)
            #expect(first.status == .created)
            let again = try await client.call(Operations.checkIn, token: token, json: body)
            #expect(again.status == .ok)
            #expect(try again.decode(CheckInResult.self).duplicate)
            let status = try await client.call(Operations.getStatus, token: token).decode(CheckInStatus.self)
            #expect(status.state == .ok)
            #expect(status.secondsLeft == 86400)
            #expect(try await client.call(Operations.listCheckIns, query: "?limit=5", token: token).decode([CheckIn].self).count == 1)
            let pause = try await client.call(
                Operations.setPause, token: token, json: PauseBody(until: world.clock.now.addingTimeInterval(86400)))
            #expect(try pause.decode(CheckInStatus.self).state == .paused)
        }
    }

    @Test func contactsPingsAndAlertsWithAuthorization() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900010")
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700900011")
            let (eve, _) = try await client.signUp(world, first: "Eve", phone: "+447700900012")

            let code = try await client.call(Operations.getContactCode, token: bob).decode(ContactCode.self)
            #expect(code.link == "lifesignal://contact/\(code.code)")
            let preview = try await client.call(Operations.lookUpContactCode, ["code": code.code], token: ada)
            #expect(try preview.decode(ContactPreview.self).firstName == "Bob")

            let added = try await client.call(
                Operations.addContact, token: ada, json: AddContactBody(code: code.link, roles: .responder))
            #expect(added.status == .accepted)
            let request = try added.decode(ContactRequest.self)
            #expect(request.state == .pending && request.roles == .responder)
            // Nothing flows before Bob says yes.
            #expect(try await client.call(Operations.listContacts, token: bob).decode(ContactLists.self).dependents.isEmpty)
            #expect(
                try await client.call(
                    Operations.acceptContactRequest, ["id": request.id.description], token: bob, json: RolesBody(roles: .responder)
                ).status == .ok)
            let duplicate = try await client.call(
                Operations.addContact, token: ada, json: AddContactBody(code: code.code, roles: .responder))
            #expect(duplicate.status == .conflict)
            let noRoles = try await client.call(Operations.addContact, token: eve, json: AddContactBody(code: code.code, roles: []))
            #expect(noRoles.status == .badRequest)

            let bobsList = try await client.call(Operations.listContacts, token: bob).decode(ContactLists.self)
            #expect(bobsList.dependents.map(\.userID) == [adaUser.id])

            // Eve is no one's responder: she sees nothing of Ada.
            let adaID = ["id": adaUser.id.description]
            #expect(try await client.call(Operations.getContactStatus, adaID, token: eve).status == .notFound)
            #expect(try await client.call(Operations.getContact, adaID, token: eve).status == .notFound)
            #expect(try await client.call(Operations.sendPing, adaID, token: eve).status == .forbidden)
            #expect(try await client.call(Operations.getAvatar, adaID, token: eve).status == .notFound)
            #expect(try await client.call(Operations.getContactStatus, adaID, token: bob).status == .ok)

            let ping = try await client.call(Operations.sendPing, adaID, token: bob)
            #expect(ping.status == .created)
            let pingID = try ping.decode(Ping.self).id.description
            #expect(try await client.call(Operations.sendPing, adaID, token: bob).status == .conflict)
            #expect(try await client.call(Operations.clearPing, ["id": pingID], token: eve).status == .notFound)
            let answered = try await client.call(
                Operations.answerPing, ["id": pingID], token: ada, json: CheckInBody(id: CheckInID(UUID())))
            #expect(answered.status == .ok)
            #expect(try answered.decode(CheckInResult.self).checkIn.source == .pingAnswer)

            let alert = try await client.call(Operations.raiseAlert, token: ada)
            #expect(alert.status == .created)
            let incident = try alert.decode(Incident.self)
            #expect(try await client.call(Operations.getIncident, ["id": incident.id.description], token: eve).status == .notFound)
            let report = try await client.call(Operations.getIncident, ["id": incident.id.description], token: bob)
            #expect(try report.decode(IncidentReport.self).recipients.map(\.userID) == [bobUser.id])
            // Ada's own status says who was told (no address in it: the schema forbids one).
            let during = try await client.call(Operations.getStatus, token: ada).decode(CheckInStatus.self)
            #expect(during.openIncident?.responders?.map(\.userID) == [bobUser.id])
            #expect(during.openIncident?.responders?.first?.deliveries.isEmpty == false)
            let cleared = try await client.call(Operations.clearAlert, token: ada)
            #expect(try cleared.decode(CheckInStatus.self).state == .ok)
            #expect(try await client.call(Operations.clearAlert, token: ada).status == .conflict)

            let roles = try await client.call(
                Operations.updateContactRoles, ["id": bobUser.id.description], token: ada, json: RolesBody(roles: [.responder, .dependent]))
            // Asking to watch over Bob too is a request: the link keeps its role until he accepts.
            let widened = try roles.decode(Contact.self)
            #expect(widened.roles == .responder)
            #expect(widened.pendingRequest?.roles == .dependent)
            #expect(try await client.call(Operations.removeContact, ["id": bobUser.id.description], token: ada).status == .noContent)
            #expect(try await client.call(Operations.listContacts, token: bob).decode(ContactLists.self).dependents.isEmpty)
        }
    }

    @Test func notificationsChannelsAndTimeline() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900020")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700900021")
            try await client.link(responder: bob, dependent: ada)
            _ = try await client.call(Operations.raiseAlert, token: ada)

            let page = try await client.call(Operations.listNotifications, query: "?category=alerts", token: bob).decode(
                NotificationPage.self)
            #expect(page.items.map(\.type) == [.manualAlert])
            // The contact request was read when Bob accepted it: only the alert is unread.
            #expect(page.unreadCount == 1)
            let id = page.items[0].id.description
            let deliveries = try await client.call(Operations.listDeliveries, ["id": id], token: bob).decode([Delivery].self)
            #expect(deliveries.map(\.channel) == [.log])
            #expect(try await client.call(Operations.listDeliveries, ["id": id], token: ada).status == .notFound)
            #expect(try await client.call(Operations.markNotificationRead, ["id": id], token: ada).status == .notFound)
            #expect(try await client.call(Operations.markNotificationRead, ["id": id], token: bob).status == .noContent)
            let all = try await client.call(Operations.markAllNotificationsRead, token: bob).decode(CountResponse.self)
            #expect(all.count == 0)
            #expect(try await client.call(Operations.deleteNotification, ["id": id], token: bob).status == .noContent)

            let channel = try await client.call(
                Operations.addChannel, token: bob, json: ChannelRegistration(kind: .email, address: "bob@example.com"))
            #expect(channel.status == .created)
            let channelID = try channel.decode(Channel.self).id.description
            #expect(try await client.call(Operations.listChannels, token: bob).decode([Channel].self).count == 1)
            #expect(try await client.call(Operations.removeChannel, ["id": channelID], token: ada).status == .notFound)
            #expect(try await client.call(Operations.removeChannel, ["id": channelID], token: bob).status == .noContent)

            // A webhook's own signing secret is in the answer that registered it, and nowhere after.
            let hook = try await client.call(
                Operations.addChannel, token: bob, json: ChannelRegistration(kind: .webhook, address: "https://hooks.example.com/t/bob"))
            #expect(hook.status == .created)
            let secret = try #require(try hook.decode(Channel.self).signingSecret)
            let listed = try await client.call(Operations.listChannels, token: bob)
            #expect(listed.status == .ok)
            #expect(!String(decoding: listed.body, as: UTF8.self).contains(secret))
            #expect(!String(decoding: listed.body, as: UTF8.self).contains("signingSecret"))

            let timeline = try await client.call(Operations.getTimeline, token: ada).decode([TimelineEntry].self)
            #expect(timeline.contains { $0.kind == "incident_opened" && $0.userID == adaUser.id })
            #expect(try await client.call(Operations.verifyTimeline, token: ada).decode(TimelineVerification.self).valid)
        }
    }

    @Test func avatarsAreValidatedAndVisibleToContacts() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900030")
            // A real 1×1 PNG: the server checks the structure and rewrites the picture.
            let png: [UInt8] = Array(
                Data(
                    base64Encoded:
                        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!)
            #expect(try await client.call(Operations.setAvatar, token: ada, bytes: Array("GIF89a....".utf8)).status == .badRequest)
            #expect(
                try await client.call(Operations.setAvatar, token: ada, bytes: png + Array(repeating: 0, count: 1 << 20)).status
                    == .contentTooLarge)
            #expect(try await client.call(Operations.setAvatar, token: ada, bytes: png).status == .noContent)
            let mine = try await client.call(Operations.getAvatar, ["id": adaUser.id.description], token: ada)
            #expect(mine.status == .ok)
            #expect(Array(mine.body) == png)
            #expect(mine.headers[.contentType] == "image/png")
        }
    }

    @Test func healthAndOpenAPIDocument() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let health = try await client.execute(uri: "/health", method: .get) { $0.status }
            #expect(health == .ok || health == .serviceUnavailable)
            let yaml = try await client.execute(uri: "/v1/openapi.yaml", method: .get) { String(buffer: $0.body) }
            #expect(yaml.contains("openapi:"))
            let json = try await client.execute(uri: "/v1/openapi.json", method: .get) { Data(buffer: $0.body) }
            #expect((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["openapi"] as? String == "3.1.0")
            let missing = try await client.execute(uri: "/v1/nothing-here", method: .get) { $0 }
            #expect(missing.status == .notFound)
        }
    }

    @Test("a browser gets an HTML page for an unknown address; the API keeps its JSON envelope")
    func errorPagesForPeople() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let html: HTTPFields = [.accept: "text/html,application/xhtml+xml,*/*;q=0.8"]
            let page = try await client.execute(uri: "/no-such-page", method: .get, headers: html) { $0 }
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let text = String(buffer: page.body)
            #expect(text.contains("<h1>Page not found</h1>") && text.contains("href=\"/\""))
            #expect(!text.contains("\"error\""))
            // The JSON API answers JSON even to a browser.
            let api = try await client.execute(uri: "/v1/no-such-thing", method: .get, headers: html) { $0 }
            #expect(api.headers[.contentType] == "application/json; charset=utf-8")
            // A script without Accept: text/html still gets the envelope.
            let plain = try await client.execute(uri: "/no-such-page", method: .get) { $0 }
            #expect(plain.headers[.contentType] == "application/json; charset=utf-8")
        }
    }

    @Test("a path served with other methods answers 405 with Allow, not 404")
    func methodNotAllowed() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let put = try await client.execute(uri: "/v1/check-ins", method: .put) { $0 }
            #expect(put.status == .methodNotAllowed)
            let expected = Operations.all.filter { $0.path == "/v1/check-ins" }.map(\.method.rawValue)
            #expect(Set(put.headers[.allow]?.components(separatedBy: ", ") ?? []) == Set(expected))
            #expect(expected.contains("POST"))
            let body = try APICoding.decoder.decode(APIErrorEnvelope.self, from: Data(buffer: put.body))
            #expect(body.error.code == .methodNotAllowed)
            // A template path with an id: DELETE is served there, PUT is not.
            let id = UUID().uuidString.lowercased()
            let onSession = try await client.execute(uri: "/v1/sessions/\(id)", method: .put) { $0 }
            #expect(onSession.status == .methodNotAllowed)
            #expect(onSession.headers[.allow]?.contains("DELETE") == true)
            // Nothing lives there: still 404, and the right method is not turned into a 405.
            #expect(try await client.execute(uri: "/v1/nowhere/\(id)", method: .put) { $0.status } == .notFound)
            #expect(try await client.execute(uri: "/v1/check-ins", method: .post) { $0.status } != .methodNotAllowed)
            // A fixed segment wins over a {parameter} in the router, and in Allow: “read-all” is
            // not a notification id, so DELETE is not served there.
            let readAll = try await client.execute(uri: "/v1/notifications/read-all", method: .delete) { $0 }
            #expect(readAll.status == .methodNotAllowed)
            #expect(readAll.headers[.allow] == "POST")
            #expect(try await client.execute(uri: "/v1/pings/answer-all", method: .options) { $0.headers[.allow] } == "POST")
        }
    }
}
