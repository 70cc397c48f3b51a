import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalServer
import LifeSignalStore
import LifeSignalTestSupport
import Logging
import NIOCore
import Testing

/// Two server instances on one PostgreSQL database, each built by `buildApplication` exactly
/// as `lifesignal serve --database postgres://…` builds it, listening on real sockets.
/// PostgreSQL only: set `LIFESIGNAL_TEST_POSTGRES_URL` (`eval "$(scripts/postgres.sh start)"`).
@Suite("Several instances on one PostgreSQL database", .serialized, .timeLimit(.minutes(5)))
struct CrossInstanceTests {
    static var postgresURL: String? { TestBackend.postgresURL }

    static func configuration(_ url: String, instance: String) -> AppConfiguration {
        var config = AppConfiguration()
        config.database = url
        config.host = "127.0.0.1"
        config.port = 0
        config.runEngine = false
        config.instanceName = instance
        config.logLevel = .warning
        return config
    }

    @Test(.enabled(if: postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")"))
    func aCheckInOnInstanceAReachesAStreamOnInstanceB() async throws {
        // Both open the same database; the migrations run once (the second finds them done).
        let (instances, drop) = try await TestWorld.instances(2)
        let (worldA, worldB) = (instances[0], instances[1])
        do {
            try await worldA.test(.live) { a in
                try await worldB.test(.live) { b in
                    let (ada, adaUser) = try await a.signUp(worldA, first: "Ada", phone: "+447700902001")
                    let (bob, _) = try await b.signUp(worldB, first: "Bob", phone: "+447700902002")
                    // Ada asks on instance A; Bob accepts on instance B.
                    let code = try await b.call(Operations.getContactCode, token: bob).decode(ContactCode.self)
                    let asked = try await a.call(
                        Operations.addContact, token: ada, json: AddContactBody(code: code.code, roles: .responder))
                    #expect(asked.status == .accepted)
                    let contactRequest = try asked.decode(ContactRequest.self)
                    #expect(
                        try await b.call(
                            Operations.acceptContactRequest, ["id": contactRequest.id.description], token: bob,
                            json: RolesBody(roles: contactRequest.roles)
                        ).status == .ok)

                    // Bob's live stream is on instance B.
                    let portB = try #require(b.port)
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(portB)/v1/events")
                    request.headers.add(name: "Authorization", value: "Bearer \(bob)")
                    // The deadline covers the whole response: a lost event fails the test in 15 s.
                    let stream = try await HTTPClient.shared.execute(request, timeout: .seconds(15))
                    #expect(stream.headers.first(name: "content-type") == "text/event-stream")
                    var events = stream.body.makeAsyncIterator()
                    // The first frame is Bob's own status, sent on connect.
                    var seen = ""
                    while !seen.contains("event: status"), let chunk = try await events.next() { seen += String(buffer: chunk) }

                    // Ada checks in through instance A.
                    #expect(try await a.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID()))).status == .created)

                    // Ada's new status arrives on B's stream (through NOTIFY).
                    let adaID = adaUser.id.description
                    while !seen.components(separatedBy: "\n\n").contains(where: { $0.hasPrefix("event: status") && $0.contains(adaID) }),
                        let chunk = try await events.next()
                    {
                        seen += String(buffer: chunk)
                    }
                    let frames = seen.components(separatedBy: "\n\n").filter { $0.hasPrefix("event: status") && $0.contains(adaID) }
                    #expect(frames.count == 1)
                }
            }
        } catch {
            await drop()
            throw error
        }
        await drop()
    }

    /// `/ready` goes red when the database cannot be reached. A server cannot be *built* on an
    /// unreachable database (`Store.open` fails at start, clearly, within the URL's
    /// `connect_timeout`), so this closes the connection pool under a running router: every
    /// later transaction fails as unavailable, as it would with the server gone.
    @Test(.enabled(if: postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")"))
    func readinessGoesRedWhenTheDatabaseIsUnreachable() async throws {
        let (world, drop) = try await TestWorld.on(.postgres)
        do {
            try await world.test { client in
                let ready = try await client.execute(uri: "/ready", method: .get) { $0 }
                #expect(ready.status == .ok)
                #expect(String(buffer: ready.body).contains("\"ready\":true"))

                await world.store.close()

                let red = try await client.execute(uri: "/ready", method: .get) { $0 }
                #expect(red.status == .serviceUnavailable)
                #expect(String(buffer: red.body).contains("\"ready\":false"))
                let health = try await client.execute(uri: "/health", method: .get) { $0 }
                #expect(health.status == .serviceUnavailable)
                #expect(String(buffer: health.body).contains("database unavailable"))

                // A write is refused with the error envelope, not acknowledged.
                let sent = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: "+447700902009"))
                #expect(sent.status.code >= 500)
                #expect(sent.error != nil)
            }
        } catch {
            await drop()
            throw error
        }
        await drop()
    }

    /// Unreachable at start: opening the store fails with a clear error instead of hanging.
    @Test(.enabled(if: postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")"))
    func startingOnAnUnreachableDatabaseFailsClearly() async throws {
        var config = Self.configuration("postgres://nobody:x@127.0.0.1:9/none?sslmode=disable&connect_timeout=2", instance: "X")
        config.port = 0
        let started = ContinuousClock.now
        await #expect(throws: StoreError.self) {
            _ = try await buildApplication(config)
        }
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
