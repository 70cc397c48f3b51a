import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import Synchronization
import Testing

/// Every operation of the API has a client method: each live client method is called once
/// against a server that records the request and refuses it, and the requests seen must be
/// exactly the operations of `Operations.all` (which `OpenAPIContractTests` holds equal to the
/// OpenAPI document). A new operation without a client method, or a method calling a path the
/// document does not have, fails here.
@Suite struct ClientCoverageTests {
    final class Seen: Sendable {
        let requests = Mutex<[String]>([])
    }

    @Test func theClientsCallEveryOperationOfTheDocument() async throws {
        let seen = Seen()
        let router = Router()
        router.add(middleware: RecorderBox(seen: seen))
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let api = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: { "token" }, timeout: .seconds(5))
            try await callEveryClientMethod(api)
        }

        let requests = seen.requests.withLock { $0 }
        var called: Set<String> = []
        var unknown: [String] = []
        for request in requests {
            let parts = request.split(separator: " ", maxSplits: 1).map(String.init)
            // The operation the router would choose ("/v1/timeline/verify", not "/v1/drills/{id}").
            let served = Endpoint.served(at: parts[1], in: Operations.all)
            guard let operation = served.first(where: { $0.method.rawValue == parts[0] }) else {
                unknown.append(request)
                continue
            }
            called.insert(operation.id)
        }
        let uncovered = Set(Operations.all.map(\.id)).subtracting(called).sorted()
        #expect(unknown.isEmpty, "requests to no operation of the document: \(unknown)")
        #expect(uncovered.isEmpty, "operations no client method calls: \(uncovered)")
    }

    /// One call of every method of every live client, with placeholder arguments.
    func callEveryClientMethod(_ api: APIClient) async throws {
        let id = UUID(uuidString: "00000000-0000-7000-8000-000000000001")!
        let tokens = TokenStorageClient.inMemory("token")
        func attempt<T>(_ call: () async throws -> T) async { _ = try? await call() }

        let auth = AuthClient.live(api: api, tokens: tokens, deviceName: "coverage")
        await attempt { try await auth.requestCode("+447700900001") }
        await attempt { try await auth.verifyCode("+447700900001", "123456") }
        await attempt { try await auth.restoreSession() }
        await attempt { try await auth.sessions() }
        await attempt { try await auth.revoke(SessionID(id)) }
        await attempt { try await auth.createToken("script", .checkIn) }
        await attempt { try await auth.signOut() }

        let users = UserClient.live(api: api, tokens: TokenStorageClient.inMemory("token"))
        await attempt { try await users.profile() }
        await attempt { try await users.updateProfile(ProfileChanges(firstName: "Ada")) }
        await attempt { try await users.setPause(Date(timeIntervalSince1970: 1_900_000_000), .keepOpen) }
        await attempt { try await users.uploadAvatar(Data([0x89, 0x50])) }
        await attempt { try await users.deleteAvatar() }
        await attempt { try await users.avatar(UserID(id)) }
        await attempt { try await users.requestPhoneChange("+447700900002") }
        await attempt { try await users.confirmPhoneChange("+447700900002", "123456") }
        await attempt { try await users.deleteAccount() }
        await attempt { try await users.sealedDetails() }
        await attempt { try await users.exportData() }
        await attempt { try await users.exportCheckIns() }

        let ladders = LadderClient.live(api: api)
        await attempt { try await ladders.ladder() }
        await attempt { try await ladders.save(LadderChange(steps: [Ladder.Step(responders: [], waitMinutes: 0)], version: 0)) }
        await attempt { try await ladders.preview() }
        await attempt { try await ladders.setKeyHolder(UserID(id), true) }
        let devices = DeviceLinkClient.live(api: api)
        await attempt { try await devices.links() }
        await attempt { try await devices.create("Front door button", false) }
        await attempt { try await devices.revoke(DeviceLinkID(id)) }
        let plans = PlanClient.live(api: api)
        await attempt { try await plans.plans() }
        await attempt { try await plans.start(PlanDraft(title: "Rax trail", dueAt: Date())) }
        await attempt { try await plans.extend(PlanID(id), 60) }
        await attempt { try await plans.done(PlanID(id)) }
        await attempt { try await plans.cancel(PlanID(id)) }
        await attempt { try await plans.headlines(UserID(id)) }

        let pauses = PauseClient.live(api: api)
        await attempt { try await pauses.pauses() }
        await attempt { try await pauses.add(nil, Date(timeIntervalSince1970: 1_900_000_000), nil) }
        await attempt { try await pauses.remove(PauseID(id)) }

        let location = LocationClient.live(api: api)
        await attempt { try await location.record(nil, .sos) }
        await attempt { try await location.own() }
        await attempt { try await location.forIncident(IncidentID(id)) }
        let dailyCalls = DailyCallClient.live(api: api)
        await attempt { try await dailyCalls.setUp("Mia", "", "+15551234599", "09:00", "Europe/Berlin") }
        await attempt { try await dailyCalls.list() }
        await attempt { try await dailyCalls.cancel(DailyCallSetupID(id)) }
        await attempt { try await dailyCalls.setAway(UserID(id), nil) }

        let checkIns = CheckInClient.live(api: api, queue: CheckInQueue())
        await attempt { try await checkIns.checkIn(CheckInID(id), Date()) }
        await attempt { try await checkIns.status() }
        await attempt { try await checkIns.history(nil, 10) }
        await attempt { try await checkIns.addTime(120) }

        let contacts = ContactClient.live(api: api)
        await attempt { try await contacts.contactCode() }
        await attempt { try await contacts.rotateCode() }
        await attempt { try await contacts.lookUp("0123456789abcdef0123456789abcdef") }
        await attempt { try await contacts.add("0123456789abcdef0123456789abcdef", .responder) }
        await attempt { try await contacts.requests() }
        await attempt { try await contacts.acceptRequest(ContactRequestID(id), .responder) }
        await attempt { try await contacts.declineRequest(ContactRequestID(id)) }
        await attempt { try await contacts.updateRoles(UserID(id), .responder) }
        await attempt { try await contacts.remove(UserID(id)) }
        await attempt { try await contacts.list(.urgency) }
        await attempt { try await contacts.contact(UserID(id)) }
        await attempt { try await contacts.status(UserID(id)) }

        let pings = PingClient.live(api: api)
        await attempt { try await pings.send(UserID(id)) }
        await attempt { try await pings.clear(PingID(id)) }
        await attempt { try await pings.answer(PingID(id), CheckInID(id)) }
        await attempt { try await pings.answerAll(CheckInID(id)) }
        await attempt { try await pings.needHelp(PingID(id)) }

        let alerts = AlertClient.live(api: api)
        await attempt { try await alerts.raise() }
        await attempt { try await alerts.clear() }
        await attempt { try await alerts.incidentReport(IncidentID(id)) }
        await attempt { try await alerts.acknowledge(IncidentID(id)) }
        await attempt { try await alerts.resolve(IncidentID(id)) }
        await attempt { try await alerts.checkInOnBehalf(UserID(id), CheckInID(id)) }
        await attempt { try await alerts.openSealedDetails(IncidentID(id)) }

        let notifications = NotificationClient.live(api: api)
        await attempt { try await notifications.list(NotificationQuery()) }
        await attempt { try await notifications.markRead(NotificationID(id)) }
        await attempt { try await notifications.markAllRead() }
        await attempt { try await notifications.delete(NotificationID(id)) }
        await attempt { try await notifications.deliveries(NotificationID(id)) }
        await attempt { for try await _ in notifications.events() {} }

        let settings = SettingsClient.live(api: api)
        await attempt { try await settings.channels() }
        await attempt { try await settings.addChannel(ChannelRegistration(kind: .email, address: "ada@example.com")) }
        await attempt { try await settings.removeChannel(ChannelID(id)) }
        await attempt { try await settings.verifyChannel(ChannelID(id), "123456") }
        await attempt { try await settings.timeline(0) }
        await attempt { try await settings.timelinePage(0, 10) }
        await attempt { try await settings.verifyTimeline() }
        await attempt { try await settings.preview() }
        await attempt { try await settings.runDrill() }
        await attempt { try await settings.drill(DrillID(id)) }
    }
}

/// Records "METHOD /path" of every request and answers each with the error envelope.
struct RecorderBox: RouterMiddleware {
    typealias Context = BasicRequestContext
    let seen: ClientCoverageTests.Seen

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        seen.requests.withLock { $0.append("\(request.method.rawValue) \(request.uri.path)") }
        return Response(
            status: .serviceUnavailable, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"code":"recording","message":"Recorded."}}"#)))
    }
}
