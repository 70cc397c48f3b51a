import Foundation
import HTTPTypes
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import NIOCore
import Testing

/// The web routes that act for or read about another person, called by Vic about Ada through
/// the pages (his sign-in cookie and the form token), for each way Vic can stand to her, as the
/// API's matrix does. A page answers with its status; a form with where it sends Vic and what
/// it tells him.
struct WebAuthorizationMatrixTests {
    typealias Relationship = AuthorizationMatrixTests.Relationship

    /// What each route gave, per relationship, in the order the test calls them: a page's
    /// status (303: sent elsewhere, with nothing of Ada's shown), a form's message.
    static let expected: [(route: String, outcomes: [Relationship: String])] = [
        ("GET /contacts/{ada}", linked("200", else: "303")),
        ("GET /incidents/{sos}", responder("200", else: "303")),
        ("POST /incidents/{sos}/sealed-details", responder("200", else: "That alert doesn't exist.")),
        ("GET /avatars/{ada}", linked("200", else: "404")),
        ("POST /pings/{rex's ping}/clear", all("That ping doesn't exist.")),
        ("POST /notifications/{ada's}/read", all("That notification doesn't exist.")),
        ("POST /notifications/{ada's}/delete", all("That notification doesn't exist.")),
        ("POST /profile/sessions/{ada's}/revoke", all("That session doesn't exist.")),
        ("POST /settings/channels/{ada's}/remove", all("That channel doesn't exist.")),
        ("POST /settings/channels/{ada's}/verify", all("That channel doesn't exist.")),
        ("GET /drills/{ada's}", all("303")),
        ("GET /contacts/daily-calls/{ada's}/card", all("404")),
        ("POST /contacts/daily-calls/{ada's}/cancel", all("That request for daily calls does not exist.")),
        ("POST /contact-requests/{vic's to ada}/accept", all("That request doesn't exist.")),
        ("POST /contacts/{ada}/ping", responder("Ping sent.", else: "You can only ping people you watch over.")),
        (
            "POST /incidents/{sos}/resolve (not acknowledged)",
            responder(
                "Say “I'm on it” before resolving Ada's emergency alert: only they can clear it otherwise.",
                else: "That alert doesn't exist.")
        ),
        (
            "POST /incidents/{sos}/acknowledge",
            responder("You're on it. We are telling them and the other responders.", else: "That alert doesn't exist.")
        ),
        (
            "POST /incidents/{sos}/check-in (SOS on)",
            responder(
                "Ada's emergency alert is on: only they can clear it. Say “I'm on it”, then resolve it when you have found them safe.",
                else: "Only someone's responders can do that.")
        ),
        ("POST /incidents/{sos}/resolve (acknowledged)", responder("Incident resolved.", else: "That alert doesn't exist.")),
        ("POST /contacts/{ada}/roles (both)", linked("200", else: "That person is not one of your contacts.")),
        ("POST /contacts/{ada}/remove", linked("Contact removed.", else: "That person is not one of your contacts.")),
        ("GET /contacts/{ada} (after removing)", all("303")),
    ]

    static func all(_ outcome: String) -> [Relationship: String] {
        Dictionary(uniqueKeysWithValues: Relationship.allCases.map { ($0, outcome) })
    }

    /// One outcome for the two who are linked to Ada (either way), another for the rest.
    static func linked(_ outcome: String, else other: String) -> [Relationship: String] {
        [.stranger: other, .requested: other, .dependentOnly: outcome, .responder: outcome]
    }

    /// One outcome for Ada's responder, another for everyone else.
    static func responder(_ outcome: String, else other: String) -> [Relationship: String] {
        [.stranger: other, .requested: other, .dependentOnly: other, .responder: outcome]
    }

    @Test("web routes × relationships", arguments: Relationship.allCases)
    func matrix(_ relationship: Relationship) async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700901101")
            let (vic, _) = try await client.signUp(world, first: "Vic", phone: "+447700901102")
            let (rex, _) = try await client.signUp(world, first: "Rex", phone: "+447700901103")
            #expect(try await client.call(Operations.setAvatar, token: ada, bytes: AuthorizationMatrixTests.png).status == .noContent)
            let note = AuthorizationMatrixTests.note
            #expect(try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(emergencyNote: note)).status == .ok)
            let secret = AuthorizationMatrixTests.secrets[2]
            // Two addresses that carry the secret: the check below is only as good as these being there.
            let email = try await client.call(
                Operations.addChannel, token: ada, json: ChannelRegistration(kind: .email, address: "ada-\(secret)@example.com"))
            #expect(email.status == .created)
            let hook = try await client.call(
                Operations.addChannel, token: ada,
                json: ChannelRegistration(kind: .webhook, address: "https://hooks.example.com/\(secret)"))
            #expect(hook.status == .created)
            try await client.link(responder: rex, dependent: ada)
            var vicsRequest: ContactRequestID?
            let adaCode = try await client.call(Operations.getContactCode, token: ada).decode(ContactCode.self)
            switch relationship {
            case .stranger: break
            case .requested:
                vicsRequest = try await client.call(
                    Operations.addContact, token: vic, json: AddContactBody(code: adaCode.code, roles: .dependent)
                ).decode(ContactRequest.self).id
            case .dependentOnly: try await client.link(responder: ada, dependent: vic)
            case .responder: try await client.link(responder: vic, dependent: ada)
            }
            let sos = try await client.call(Operations.raiseAlert, token: ada).decode(Incident.self).id.description
            let ping = try await client.call(Operations.sendPing, ["id": adaUser.id.description], token: rex).decode(Ping.self)
            let drill = try await client.call(Operations.runDrill, token: ada).decode(DrillReport.self).id.description
            let notification = try #require(
                try await client.call(Operations.listNotifications, token: ada).decode(NotificationPage.self).items.first)
            let session = try #require(try await client.call(Operations.listSessions, token: ada).decode([Session].self).first)
            let channel = try #require(
                try await client.call(Operations.listChannels, token: ada).decode([LifeSignalModels.Channel].self).first)
            let adaID = adaUser.id.description
            let mother = try await client.call(
                Operations.createDailyCallSetup, token: ada,
                json: DailyCallSetupBody(firstName: "Mia", phone: "+447700901099", time: "09:00", timeZone: "Europe/London")
            ).decode(DailyCallSetup.self)
            let request = (vicsRequest ?? ContactRequestID(UUID())).description

            let csrf = Accounts.tokenHash("csrf:" + vic)
            /// A page's status, and what it showed Vic.
            @Sendable func page(_ path: String) async throws -> (said: String, body: String) {
                try await client.execute(uri: path, method: .get, headers: [.cookie: "ls_session=\(vic)"]) { response in
                    ("\(response.status.code)", String(buffer: response.body))
                }
            }
            /// The message the form came back with, or its status when it showed a page; and what it showed.
            @Sendable func form(_ path: String, _ fields: String = "") async throws -> (said: String, body: String) {
                let (status, flash, body) = try await client.execute(
                    uri: path, method: .post,
                    headers: [.cookie: "ls_session=\(vic)", .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "_csrf=\(csrf)" + (fields.isEmpty ? "" : "&" + fields))
                ) { response in
                    (
                        response.status,
                        response.headers[values: .setCookie].first { $0.hasPrefix("ls_flash=") }
                            .map { String($0.dropFirst("ls_flash=".count).prefix { $0 != ";" }).removingPercentEncoding ?? "" },
                        String(buffer: response.body)
                    )
                }
                guard status == .seeOther, let flash else { return ("\(status.code)", body) }
                return (flash, body)
            }

            let calls: [@Sendable () async throws -> (said: String, body: String)] = [
                { try await page("/contacts/\(adaID)") },
                { try await page("/incidents/\(sos)") },
                { try await form("/incidents/\(sos)/sealed-details") },
                { try await page("/avatars/\(adaID)") },
                { try await form("/pings/\(ping.id)/clear") },
                { try await form("/notifications/\(notification.id)/read") },
                { try await form("/notifications/\(notification.id)/delete") },
                { try await form("/profile/sessions/\(session.id)/revoke") },
                { try await form("/settings/channels/\(channel.id)/remove") },
                { try await form("/settings/channels/\(channel.id)/verify", "code=123456") },
                { try await page("/drills/\(drill)") },
                { try await page("/contacts/daily-calls/\(mother.id)/card") },
                { try await form("/contacts/daily-calls/\(mother.id)/cancel") },
                { try await form("/contact-requests/\(request)/accept", "dependent=on") },
                { try await form("/contacts/\(adaID)/ping") },
                { try await form("/incidents/\(sos)/resolve") },
                { try await form("/incidents/\(sos)/acknowledge") },
                { try await form("/incidents/\(sos)/check-in", "user=\(adaID)") },
                { try await form("/incidents/\(sos)/resolve") },
                { try await form("/contacts/\(adaID)/roles", "responder=on&dependent=on") },
                { try await form("/contacts/\(adaID)/remove") },
                { try await page("/contacts/\(adaID)") },
            ]
            #expect(calls.count == Self.expected.count)
            var row: [String] = []
            for (call, (route, outcomes)) in zip(calls, Self.expected) {
                let (got, body) = try await call()
                row.append("\(route)=\(got)")
                #expect(got == outcomes[relationship], "\(relationship): \(route) → \(got)")
                // As in the API's matrix: Vic never reads Ada's addresses, and only someone linked
                // to her reads her emergency note.
                #expect(!body.contains(secret), "\(relationship): \(route) showed one of Ada's addresses")
                if relationship == .stranger || relationship == .requested {
                    #expect(!body.contains(note), "\(relationship): \(route) showed Ada's emergency note")
                }
                if relationship == .responder && route == "GET /contacts/{ada}" {
                    #expect(body.contains(note), "her responder reads her note on her page: the bodies are what was shown")
                }
            }
            print("web-authorization-matrix \(relationship): \(row.joined(separator: "; "))")
        }
    }
}
