import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalModels
import LifeSignalTestSupport
import NIOCore
import Testing

/// `GET /v1/me/export` and its CSV: everything of hers and nothing of anyone else's, for a full
/// caller only, a few times an hour; on SQLite and on PostgreSQL.
@Suite("Data export")
struct DataExportTests {
    @Test(arguments: TestBackend.all)
    func herExportHoldsHerDataAndNobodyElses(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900851")
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700900852")
            try await client.link(responder: bob, dependent: ada)

            // Two check-ins in the same instant (paging must keep both), one with her clock.
            let clientAt = world.clock.now.addingTimeInterval(-3)
            var hers: [CheckInID] = []
            for at in [clientAt, nil] {
                let id = CheckInID(UUID())
                let made = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: id, clientAt: at))
                #expect(made.status == .created)
                hers.append(id)
            }
            world.clock.advance(by: 60)
            let bobsCheckIn = CheckInID(UUID())
            #expect(try await client.call(Operations.checkIn, token: bob, json: CheckInBody(id: bobsCheckIn)).status == .created)
            let sos = try await client.call(Operations.raiseAlert, token: ada).decode(Incident.self)
            let bobsSOS = try await client.call(Operations.raiseAlert, token: bob).decode(Incident.self)

            let link = try await client.call(Operations.createDeviceLink, token: ada, json: DeviceLinkBody(name: "Front door"))
                .decode(NewDeviceLink.self)
            let linkSecret = try #require(link.url.split(separator: "/").last.map(String.init))

            let response = try await client.call(Operations.exportData, token: ada)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(response.headers[.contentDisposition] == #"attachment; filename="lifesignal-export-2026-11-21.json""#)
            #expect(response.headers[.cacheControl] == "no-store")
            let export = try response.decode(DataExport.self)
            #expect(export.formatVersion == 1)
            #expect(export.exportedAt == world.clock.now)
            #expect(export.profile.id == adaUser.id && export.profile.firstName == "Ada")
            #expect(export.profile.schedule == adaUser.schedule)
            // Both of hers, in the order recorded (same instant: by id), and Bob's not at all.
            #expect(export.checkIns.map(\.id) == hers.sorted { $0.description < $1.description })
            #expect(export.checkIns.allSatisfy { $0.userID == adaUser.id })
            #expect(export.checkIns.first { $0.id == hers[0] }?.clientAt == clientAt)
            #expect(export.contacts.responders.map(\.userID) == [bobUser.id])
            #expect(export.contacts.dependents.isEmpty)
            #expect(export.incidents.map(\.id) == [sos.id])
            #expect(!export.timeline.isEmpty)
            #expect(export.timeline.allSatisfy { $0.userID == adaUser.id })
            #expect(export.timeline.map(\.sequence) == Array(1...export.timeline.count))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(export.deviceLinks.map(\.name) == ["Front door"])
            for secret in [bobsCheckIn.description, bobsSOS.id.description, ada, bob, linkSecret] {
                #expect(!text.contains(secret), "\(secret) is in Ada's export")
            }

            // Bob's export is his: his check-in and alert, Ada among the people he watches over.
            let his = try await client.call(Operations.exportData, token: bob).decode(DataExport.self)
            #expect(his.checkIns.map(\.id) == [bobsCheckIn])
            #expect(his.incidents.map(\.id) == [bobsSOS.id])
            #expect(his.contacts.dependents.map(\.userID) == [adaUser.id])
        }
    }

    @Test(arguments: TestBackend.all)
    func checkInsAsCSV(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900853")
            let (bob, bobUser) = try await client.signUp(world, first: "Bob", phone: "+447700900854")
            try await client.link(responder: bob, dependent: ada)
            let first = CheckInID(UUID())
            let clientAt = world.clock.now.addingTimeInterval(-1.5)
            let made = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: first, clientAt: clientAt, source: .web))
            let at = try made.decode(CheckInResult.self).checkIn.at
            // Overdue, so Bob may check in on her behalf: his id is in her row, as the API shows it.
            world.clock.advance(by: 3 * 86_400)
            let behalf = CheckInID(UUID())
            let onBehalf = try await client.call(
                Operations.checkInOnBehalf,
                ["id": try await client.call(Operations.getProfile, token: ada).decode(User.self).id.description],
                token: bob, json: CheckInBody(id: behalf))
            #expect(onBehalf.status == .ok || onBehalf.status == .created, "\(onBehalf.status)")
            let bobsOwn = CheckInID(UUID())
            _ = try await client.call(Operations.checkIn, token: bob, json: CheckInBody(id: bobsOwn))

            let response = try await client.call(Operations.exportCheckIns, token: ada)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(response.headers[.contentDisposition] == #"attachment; filename="lifesignal-check-ins-2026-11-24.csv""#)
            let csv = String(decoding: response.body, as: UTF8.self)
            let lines = csv.components(separatedBy: "\r\n")
            #expect(lines.first == "id,at,source,recorded_by,client_at,device")
            #expect(lines.last == "", "every row ends with CRLF")
            #expect(lines.count == 4)
            #expect(lines[1] == "\(first),\(ISODate.format(at)),web,,\(ISODate.format(clientAt)),")
            #expect(lines[2].hasPrefix("\(behalf),") && lines[2].hasSuffix(",responder,\(bobUser.id),,"), "\(lines[2])")
            #expect(!csv.contains(bobsOwn.description))
        }
    }

    @Test(arguments: TestBackend.all)
    func aCheckInTokenOrNoTokenGetsNothingAndCountsNothing(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900855")
            _ = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID())))
            let token = try await client.call(
                Operations.createAPIToken, token: ada, json: TokenNameBody(name: "watch", scope: .checkIn)
            ).decode(TokenResponse.self).token
            // More refusals than the limit allows exports: none of them counts.
            for _ in 0..<6 {
                for operation in [Operations.exportData, Operations.exportCheckIns] as [any OperationDescription] {
                    let refused = try await client.call(operation, token: token)
                    #expect(refused.status == .forbidden && refused.error?.code == .tokenScope, "\(operation)")
                    #expect(refused.headers[.contentDisposition] == nil)
                    let anonymous = try await client.call(operation)
                    #expect(anonymous.status == .unauthorized && anonymous.error?.code == .unauthorized, "\(operation)")
                }
            }
            #expect(try await client.call(Operations.exportData, token: ada).status == .ok)
        }
    }

    @Test(arguments: TestBackend.all)
    func aFewExportsAnHour(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900856")
            // Either kind counts towards the same ten.
            for index in 0..<10 {
                let operation: any OperationDescription = index.isMultiple(of: 2) ? Operations.exportData : Operations.exportCheckIns
                #expect(try await client.call(operation, token: ada).status == .ok, "export \(index + 1)")
            }
            let refused = try await client.call(Operations.exportCheckIns, token: ada)
            #expect(refused.status == .tooManyRequests && refused.error?.code == .tooManyExports)
            #expect(refused.error?.message.contains("several times in the last hour") == true)
            let retry = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
            #expect(retry > 0 && retry <= 3600)
            world.clock.advance(by: TimeInterval(retry))
            #expect(try await client.call(Operations.exportData, token: ada).status == .ok)
        }
    }

    /// The profile page offers both files, served with the browser's session.
    @Test func theProfilePageOffersBothDownloads() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, adaUser) = try await client.signUp(world, first: "Ada", phone: "+447700900857")
            _ = try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID())))
            let cookie: HTTPFields = [.cookie: "ls_session=\(ada)"]
            let page = try await client.execute(uri: "/profile", method: .get, headers: cookie) {
                String(buffer: $0.body)
            }
            #expect(page.contains("Download my data"))
            #expect(page.contains(#"href="/profile/export.json""#) && page.contains(#"href="/profile/export/check-ins.csv""#))

            let json = try await client.execute(uri: "/profile/export.json", method: .get, headers: cookie) { $0 }
            #expect(json.status == .ok)
            #expect(json.headers[.contentDisposition] == #"attachment; filename="lifesignal-export-2026-11-21.json""#)
            let export = try APICoding.decoder.decode(DataExport.self, from: Data(buffer: json.body))
            #expect(export.profile.id == adaUser.id && export.checkIns.count == 1)

            let csv = try await client.execute(uri: "/profile/export/check-ins.csv", method: .get, headers: cookie) { $0 }
            #expect(csv.status == .ok)
            #expect(String(buffer: csv.body).hasPrefix("id,at,source,recorded_by,client_at,device\r\n"))

            // Signed out, the browser is sent to sign in.
            let anonymous = try await client.execute(uri: "/profile/export.json", method: .get) { $0 }
            #expect(anonymous.status == .seeOther || anonymous.status == .found)
            #expect(anonymous.headers[.location] == "/signin")
        }
    }
}
