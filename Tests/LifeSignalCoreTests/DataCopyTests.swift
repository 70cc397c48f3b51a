import Foundation
@_spi(Testing) import LifeSignalCore
import LifeSignalModels
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import Logging
import Testing

/// `lifesignal migrate-data`: an install filled through the service on SQLite is copied into
/// an empty PostgreSQL database, row for row, and the service reads it back there as it was.
/// PostgreSQL only: set `LIFESIGNAL_TEST_POSTGRES_URL` (`eval "$(scripts/postgres.sh start)"`);
/// CI always does.
@Suite("SQLite → PostgreSQL copy", .serialized, .timeLimit(.minutes(2)))
struct DataCopyTests {
    /// A fresh PostgreSQL database, dropped afterwards.
    func withEmptyPostgres(_ body: (String) async throws -> Void) async throws {
        try await ScratchPostgres.with(body)
    }

    /// Every row of `table`, each as its columns' values, in a stable order.
    func rows(_ store: Store, _ table: String) async throws -> [String] {
        try await store.rawDatabase.read { db in
            try await db.query("SELECT * FROM \(table)", []).map { row in
                row.columns.sorted().map { "\($0)=\(row[$0])" }.joined(separator: "|")
            }
        }.sorted()
    }

    @Test(.enabled(if: MultiEngineTests.postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL"))
    func everyRowArrivesAndTheServiceReadsItBack() async throws {
        // An install with a bit of everything, made through the service on SQLite.
        var configuration = ServiceConfiguration()
        configuration.channelAddresses = .localTesting
        let world = try await TestWorld(configuration: configuration)
        let ada = try await world.signUp("Ada", phone: "+447700900600")
        let bob = try await world.signUp("Bob", phone: "+447700900601")
        let cy = try await world.signUp("Cy", phone: "+447700900602")
        try await world.link(responder: bob, dependent: ada)
        _ = try await world.contacts.addContact(cy, code: ada.user.contactCode, roles: .responder)  // pending
        _ = try await world.channels.addChannel(bob, .init(kind: .webhook, address: "http://127.0.0.1:9/bob"))
        _ = try await world.accounts.createAPIToken(ada, name: "script", scope: .checkIn)
        world.clock.advance(by: 60)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        _ = try await world.pings.ping(bob, dependent: ada.user.id)
        let sos = try await world.incidents.raiseAlert(ada)
        _ = try await world.incidents.acknowledge(bob, incident: sos.id)
        let statusBefore = try await world.checkIns.status(ada)

        try await withEmptyPostgres { url in
            let target = try await Store.open(url)
            let tables = try await DataCopy.copy(from: world.store, to: target, batchRows: 7)
            #expect(tables.map(\.name).contains("users") && tables.map(\.name).contains("timeline"))
            #expect(!tables.map(\.name).contains("schema_migrations"))
            for table in tables {
                #expect(try await rows(target, table.name) == rows(world.store, table.name), "table \(table.name)")
            }
            #expect(tables.first { $0.name == "users" }?.rows == 3)
            #expect(tables.first { $0.name == "contact_requests" }?.rows ?? 0 >= 2)
            #expect(tables.first { $0.name == "deliveries" }?.rows ?? 0 > 0)

            // The service on PostgreSQL sees the same person, and the timeline still verifies.
            var environment = ServiceEnvironment.live(logger: Logger(label: "copy-test"))
            let clock = world.clock
            environment.now = { clock.now }
            let copied = ServiceCore(
                store: target, environment: environment, configuration: configuration,
                codeSender: SignInCodeSender { _, _ in })
            #expect(try await CheckIns(copied).status(ada) == statusBefore)
            let verification = try await Timeline(copied).verifyTimeline(ada)
            #expect(verification.valid)
            #expect(verification.entries > 0)
            #expect(try await Contacts(copied).contactRequests(cy).outgoing.count == 1)

            // Again into the same database: refused, and nothing changes.
            await #expect(throws: StoreError.self) { try await DataCopy.copy(from: world.store, to: target) }
            #expect(try await rows(target, "users").count == 3)
            await target.close()
        }
    }
}
