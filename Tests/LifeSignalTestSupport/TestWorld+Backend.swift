import Foundation
import HummingbirdTesting
@_spi(Testing) import LifeSignalCore
import LifeSignalServer
import LifeSignalStore

/// The databases a test runs on: SQLite always, PostgreSQL as well when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set (`eval "$(scripts/postgres.sh start)"`).
public enum TestBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite, postgres

    public static let postgresURL: String? = {
        let value = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    /// The backends this run tests.
    public static var all: [TestBackend] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    public var description: String { rawValue }
}

extension TestWorld {
    /// A world over a fresh database on `backend`: a SQLite file of its own, or a PostgreSQL
    /// database `t_<random>` on the shared test server. Call `drop` at the end: it closes the
    /// world's store and drops a PostgreSQL database (nothing to do for SQLite, whose file goes
    /// with the world). `server` and `dependencies` change the server as
    /// ``init(configuration:server:dependencies:clock:)``'s do; on PostgreSQL `server` sees the
    /// scratch database's URL in `database` (and may add a setting to it).
    public static func on(
        _ backend: TestBackend, configuration: ServiceConfiguration = .init(),
        server: (inout AppConfiguration) throws -> Void = { _ in },
        dependencies: (inout AppDependencies) -> Void = { _ in }
    ) async throws -> (world: TestWorld, drop: @Sendable () async -> Void) {
        guard backend == .postgres else {
            return (try await TestWorld(configuration: configuration, server: server, dependencies: dependencies), {})
        }
        let database = try await ScratchPostgres.make()
        let world: TestWorld
        do {
            world = try await TestWorld(
                configuration: configuration,
                server: { settings in
                    settings.database = database.url
                    try server(&settings)
                },
                dependencies: dependencies)
        } catch {
            await database.drop()
            throw error
        }
        let store = world.core.storeForTesting
        return (
            world,
            {
                await store.close()
                await database.drop()
            }
        )
    }
}

extension TestWorld {
    /// Runs `body` against the app in memory, on a fresh world over `backend`, and drops the
    /// world's database afterwards (whether `body` threw or not).
    public static func test(
        on backend: TestBackend, _ body: @Sendable (TestWorld, any TestClientProtocol) async throws -> Void
    ) async throws {
        let (world, drop) = try await TestWorld.on(backend)
        do {
            try await world.test { client in try await body(world, client) }
        } catch {
            await drop()
            throw error
        }
        await drop()
    }
}

extension TestWorld {
    /// `count` servers over one fresh PostgreSQL database, as the instances of one deployment
    /// are (named `instance-0`, `instance-1`…), each built by `buildApplication` and all on one
    /// clock. Call `drop` at the end: it
    /// closes their stores and drops the database. Needs `LIFESIGNAL_TEST_POSTGRES_URL`.
    public static func instances(
        _ count: Int, configuration: ServiceConfiguration = .init()
    ) async throws -> (worlds: [TestWorld], drop: @Sendable () async -> Void) {
        let database = try await ScratchPostgres.make()
        let clock = ManualClock(start)
        var worlds: [TestWorld] = []
        let dropAll: @Sendable ([TestWorld]) async -> Void = { worlds in
            for world in worlds { await world.store.close() }
            await database.drop()
        }
        do {
            for _ in 0..<count {
                let name = "instance-\(worlds.count)"
                worlds.append(
                    try await TestWorld(
                        configuration: configuration,
                        server: { settings in
                            settings.database = database.url
                            settings.instanceName = name
                        }, clock: clock))
            }
        } catch {
            await dropAll(worlds)
            throw error
        }
        let made = worlds
        return (made, { await dropAll(made) })
    }
}
