import Foundation
import HTTPTypes
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// Every `/v1` operation that names another person, called by Vic about Ada, for each way Vic
/// can stand to her. Nothing of Ada's flows until she has said yes, a dependent cannot read or
/// act for the person who watches them, and no answer to anyone but its owner carries an
/// address, token or provider id.
struct AuthorizationMatrixTests {
    enum Relationship: String, CaseIterable, Sendable, CustomStringConvertible {
        /// No link, no request.
        case stranger
        /// Vic asked to watch over Ada; she has not answered.
        case requested
        /// Ada watches over Vic; he does not watch over her.
        case dependentOnly = "dependent-only"
        /// Vic watches over Ada: she asked, he accepted.
        case responder

        var description: String { rawValue }
    }

    /// The expected status of each operation, per relationship, in the order the test calls them.
    static let expected: [(operation: String, statuses: [Relationship: Int])] = [
        ("GET /v1/contact-codes/{code}", all(200)),
        ("GET /v1/contacts/{id}", [.stranger: 404, .requested: 404, .dependentOnly: 200, .responder: 200]),
        ("GET /v1/contacts/{id}/status", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 200]),
        ("GET /v1/users/{id}/avatar", [.stranger: 404, .requested: 404, .dependentOnly: 200, .responder: 200]),
        ("GET /v1/incidents/{id}", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 200]),
        ("POST /v1/incidents/{id}/sealed-details (SOS open)", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 200]),
        ("GET /v1/incidents/{id}/location (SOS open)", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 200]),
        (
            "POST /v1/incidents/{id}/resolve (SOS, not acknowledged)",
            [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 403]
        ),
        ("DELETE /v1/pings/{id} (Rex's ping to Ada)", all(404)),
        ("POST /v1/pings/{id}/answer (Rex's ping to Ada)", all(404)),
        ("POST /v1/pings/{id}/help (Rex's ping to Ada)", all(404)),
        ("GET /v1/notifications/{id}/deliveries (Ada's)", all(404)),
        ("POST /v1/notifications/{id}/read (Ada's)", all(404)),
        ("DELETE /v1/notifications/{id} (Ada's)", all(404)),
        ("DELETE /v1/sessions/{id} (Ada's)", all(404)),
        ("DELETE /v1/channels/{id} (Ada's)", all(404)),
        ("POST /v1/channels/{id}/verify (Ada's)", all(404)),
        ("GET /v1/drills/{id} (Ada's)", all(404)),
        ("DELETE /v1/daily-call-setups/{id} (Ada's, for her mother)", all(404)),
        ("POST /v1/daily-call-setups (for Ada's own number)", all(409)),
        ("PUT /v1/contacts/{id}/away (Ada on an interval)", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 409]),
        ("POST /v1/contact-requests/{id}/accept (Vic's own or none)", all(404)),
        ("POST /v1/contacts/{id}/ping", [.stranger: 403, .requested: 403, .dependentOnly: 403, .responder: 201]),
        ("POST /v1/incidents/{id}/acknowledge", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 200]),
        ("POST /v1/incidents/{id}/resolve (SOS, acknowledged)", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 200]),
        ("POST /v1/contacts/{id}/check-in (Ada not overdue)", [.stranger: 403, .requested: 403, .dependentOnly: 403, .responder: 403]),
        ("POST /v1/contacts/{id}/check-in with callMe (Ada not overdue)", all(403)),
        (
            "PATCH /v1/contacts/{id} (keyHolder: Ada holds Vic's key)",
            [.stranger: 404, .requested: 404, .dependentOnly: 200, .responder: 400]
        ),
        ("PUT /v1/me/ladder (Ada on Vic's ladder)", [.stranger: 400, .requested: 400, .dependentOnly: 200, .responder: 400]),
        ("PATCH /v1/contacts/{id} (asks for both roles)", [.stranger: 404, .requested: 404, .dependentOnly: 200, .responder: 200]),
        ("GET /v1/contacts/{id}/status (after the PATCH)", [.stranger: 404, .requested: 404, .dependentOnly: 404, .responder: 200]),
        ("DELETE /v1/contacts/{id}", [.stranger: 404, .requested: 404, .dependentOnly: 204, .responder: 204]),
        ("GET /v1/contacts/{id}/status (after removing)", all(404)),
        // Vic's own "call me" is his own check-in: it never reaches Ada's responders.
        ("POST /v1/check-ins with callMe (Vic's own)", all(201)),
    ]

    static func all(_ status: Int) -> [Relationship: Int] {
        Dictionary(uniqueKeysWithValues: Relationship.allCases.map { ($0, status) })
    }

    static let png: [UInt8] = [
        137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 144, 119, 83, 222, 0,
        0, 0, 12, 73, 68, 65, 84, 120, 156, 99, 248, 207, 192, 0, 0, 3, 1, 1, 0, 201, 254, 146, 239, 0, 0, 0, 0, 73, 69, 78, 68,
        174, 66, 96, 130,
    ]
    static let note = "Key under the blue pot"
    static let secrets = ["SECRET-VIC-7731", "SECRET-REX-4417", "SECRET-ADA-0912"]

    @Test("operations × relationships", arguments: Relationship.allCases)
    func matrix(_ relationship: Relationship) async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700901001")
            let (vic, _) = try await client.signUp(world, first: "Vic", phone: "+447700901002")
            let (rex, _) = try await client.signUp(world, first: "Rex", phone: "+447700901003")
            #expect(
                try await client.call(Operations.updateProfile, token: ada, json: ProfileChanges(emergencyNote: Self.note)).status == .ok)
            #expect(try await client.call(Operations.setAvatar, token: ada, bytes: Self.png).status == .noContent)
            for (token, secret) in [(vic, Self.secrets[0]), (rex, Self.secrets[1]), (ada, Self.secrets[2])] {
                let channel = try await client.call(
                    Operations.addChannel, token: token,
                    json: ChannelRegistration(kind: .webhook, address: "https://hooks.example.com/\(secret)"))
                #expect(channel.status == .created)
            }
            try await client.link(responder: rex, dependent: ada)

            var vicsRequest: ContactRequestID?
            let adaCode = try await client.call(Operations.getContactCode, token: ada).decode(ContactCode.self)
            let vicCode = try await client.call(Operations.getContactCode, token: vic).decode(ContactCode.self)
            switch relationship {
            case .stranger: break
            case .requested:
                let asked = try await client.call(
                    Operations.addContact, token: vic, json: AddContactBody(code: adaCode.code, roles: .dependent))
                #expect(asked.status == .accepted)
                vicsRequest = try asked.decode(ContactRequest.self).id
            case .dependentOnly:
                try await client.link(responder: ada, dependent: vic)
            case .responder:
                try await client.link(responder: vic, dependent: ada)
            }

            // Ada's SOS, Rex's ping to her, her drill, her own notification, session and channel.
            let sos = try await client.call(Operations.raiseAlert, token: ada).decode(Incident.self)
            let ping = try await client.call(Operations.sendPing, ["id": adaUser.id.description], token: rex).decode(Ping.self)
            let drill = try await client.call(Operations.runDrill, token: ada)
            #expect(drill.status.code < 300)
            let drillID = try drill.decode(DrillReport.self).id
            let adaNotification = try #require(
                try await client.call(Operations.listNotifications, token: ada).decode(NotificationPage.self).items.first)
            let adaSession = try #require(try await client.call(Operations.listSessions, token: ada).decode([Session].self).first)
            let adaChannel = try #require(try await client.call(Operations.listChannels, token: ada).decode([Channel].self).first)
            let mother = try await client.call(
                Operations.createDailyCallSetup, token: ada,
                json: DailyCallSetupBody(firstName: "Mia", phone: "+447700901099", time: "09:00", timeZone: "Europe/London"))
            #expect(mother.status == .created)
            let motherSetup = try mother.decode(DailyCallSetup.self)

            let adaID = ["id": adaUser.id.description]
            let vicsRequestID = (vicsRequest ?? ContactRequestID(UUID())).description
            let calls: [@Sendable () async throws -> APIResponse] = [
                { try await client.call(Operations.lookUpContactCode, ["code": adaCode.code], token: vic) },
                { try await client.call(Operations.getContact, adaID, token: vic) },
                { try await client.call(Operations.getContactStatus, adaID, token: vic) },
                { try await client.call(Operations.getAvatar, adaID, token: vic) },
                { try await client.call(Operations.getIncident, ["id": sos.id.description], token: vic) },
                { try await client.call(Operations.openSealedDetails, ["id": sos.id.description], token: vic) },
                { try await client.call(Operations.getIncidentLocation, ["id": sos.id.description], token: vic) },
                { try await client.call(Operations.resolveIncident, ["id": sos.id.description], token: vic) },
                { try await client.call(Operations.clearPing, ["id": ping.id.description], token: vic) },
                {
                    try await client.call(
                        Operations.answerPing, ["id": ping.id.description], token: vic, json: CheckInBody(id: CheckInID(UUID())))
                },
                { try await client.call(Operations.answerPingWithHelp, ["id": ping.id.description], token: vic) },
                { try await client.call(Operations.listDeliveries, ["id": adaNotification.id.description], token: vic) },
                { try await client.call(Operations.markNotificationRead, ["id": adaNotification.id.description], token: vic) },
                { try await client.call(Operations.deleteNotification, ["id": adaNotification.id.description], token: vic) },
                { try await client.call(Operations.revokeSession, ["id": adaSession.id.description], token: vic) },
                { try await client.call(Operations.removeChannel, ["id": adaChannel.id.description], token: vic) },
                {
                    try await client.call(
                        Operations.verifyChannel, ["id": adaChannel.id.description], token: vic, json: ChannelCodeBody(code: "123456"))
                },
                { try await client.call(Operations.getDrill, ["id": drillID.description], token: vic) },
                { try await client.call(Operations.cancelDailyCallSetup, ["id": motherSetup.id.description], token: vic) },
                {
                    try await client.call(
                        Operations.createDailyCallSetup, token: vic,
                        json: DailyCallSetupBody(firstName: "Ada", phone: "+447700901001", time: "09:00", timeZone: "Europe/London"))
                },
                {
                    try await client.call(
                        Operations.setContactAway, adaID, token: vic, json: PauseBody(until: world.clock.now.addingTimeInterval(86400)))
                },
                {
                    try await client.call(
                        Operations.acceptContactRequest, ["id": vicsRequestID], token: vic, json: RolesBody(roles: .responder))
                },
                { try await client.call(Operations.sendPing, adaID, token: vic) },
                { try await client.call(Operations.acknowledgeIncident, ["id": sos.id.description], token: vic) },
                { try await client.call(Operations.resolveIncident, ["id": sos.id.description], token: vic) },
                { try await client.call(Operations.checkInOnBehalf, adaID, token: vic, json: CheckInBody(id: CheckInID(UUID()))) },
                {
                    try await client.call(
                        Operations.checkInOnBehalf, adaID, token: vic, json: CheckInBody(id: CheckInID(UUID()), callMe: true))
                },
                { try await client.call(Operations.updateContactRoles, adaID, token: vic, json: ContactChangeBody(keyHolder: true)) },
                {
                    try await client.call(
                        Operations.setLadder, token: vic,
                        json: LadderChange(steps: [Ladder.Step(responders: [adaUser.id], waitMinutes: 0)], version: 0))
                },
                {
                    try await client.call(
                        Operations.updateContactRoles, adaID, token: vic, json: ContactChangeBody(roles: [.responder, .dependent]))
                },
                { try await client.call(Operations.getContactStatus, adaID, token: vic) },
                { try await client.call(Operations.removeContact, adaID, token: vic) },
                { try await client.call(Operations.getContactStatus, adaID, token: vic) },
                { try await client.call(Operations.checkIn, token: vic, json: CheckInBody(id: CheckInID(UUID()), callMe: true)) },
            ]
            #expect(calls.count == Self.expected.count)
            var row: [String] = []
            for (call, (operation, statuses)) in zip(calls, Self.expected) {
                let response = try await call()
                let body = String(decoding: response.body, as: UTF8.self)
                #expect(
                    Int(response.status.code) == statuses[relationship], "\(relationship): \(operation) → \(response.status.code) \(body)")
                row.append("\(operation)=\(response.status.code)")
                // Vic never reads another person's address, token or provider id.
                for secret in Self.secrets where secret != Self.secrets[0] {
                    #expect(!body.contains(secret), "\(relationship): \(operation) leaked \(secret)")
                }
                #expect(!body.contains("providerID"), "\(relationship): \(operation) carried a provider id")
                if relationship == .stranger || relationship == .requested {
                    #expect(!body.contains(Self.note), "\(relationship): \(operation) showed Ada's emergency note")
                }
            }
            print("authorization-matrix \(relationship): \(row.joined(separator: "; "))")
            // Nobody asked Rex (Ada's responder) for a call: not Vic about Ada, not Vic about himself.
            let rexs = try await client.call(Operations.listNotifications, token: rex).decode(NotificationPage.self)
            #expect(!rexs.items.contains { $0.type == .callRequest }, "\(relationship)")

            // Ada's request for her mother is hers alone: still pending, and in nobody else's list.
            #expect(try await client.call(Operations.listDailyCallSetups, token: vic).decode([DailyCallSetup].self).isEmpty)
            let adas = try await client.call(Operations.listDailyCallSetups, token: ada).decode([DailyCallSetup].self)
            #expect(adas.map(\.status) == [.pending])

            // Whatever Vic did, he is not Ada's key holder and not on her ladder: both are hers alone.
            let adasLists = try await client.call(Operations.listContacts, token: ada).decode(ContactLists.self)
            #expect(adasLists.responders.allSatisfy { $0.keyHolder != true })
            let adasLadder = try await client.call(Operations.getLadder, token: ada).decode(Ladder.self)
            #expect(adasLadder == .default)

            // Ada's own drill report names her responders' channel kinds, never their addresses.
            let report = String(
                decoding: try await client.call(Operations.getDrill, ["id": drillID.description], token: ada).body, as: UTF8.self)
            #expect(report.contains("\"webhook\""))
            for secret in Self.secrets { #expect(!report.contains(secret)) }
            #expect(!report.contains("\"address\""))

            // A stranger holding Vic's code cannot make Vic watch anyone or be watched without Vic's yes.
            let asked = try await client.call(
                Operations.addContact, token: rex, json: AddContactBody(code: vicCode.code, roles: .responder))
            #expect(asked.status == .accepted)
            let rexsLists = try await client.call(Operations.listContacts, token: rex).decode(ContactLists.self)
            #expect(!rexsLists.responders.contains { $0.firstName == "Vic" })
        }
    }
}
