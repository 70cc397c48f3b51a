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
    /// with the world). `server` changes the server's configuration as ``init(configuration:server:dependencies:)``'s does.
    public static func on(
        _ backend: TestBackend, configuration: ServiceConfiguration = .init(),
        server: (inout AppConfiguration) throws -> Void = { _ in }
    ) async throws -> (world: TestWorld, drop: @Sendable () async -> Void) {
        guard backend == .postgres, let base = TestBackend.postgresURL else {
            return (try await TestWorld(configuration: configuration, server: server), {})
        }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let maintenance = try await PostgresDatabase.connect(url: base, logger: nil)
        do { try await maintenance.executeScript("CREATE DATABASE \(name)") } catch {
            await maintenance.close()
            throw error
        }
        await maintenance.close()
        guard var components = URLComponents(string: base) else { throw URLError(.badURL) }
        components.path = "/\(name)"
        let url = components.string ?? base
        let world = try await TestWorld(
            configuration: configuration,
            server: { settings in
                try server(&settings)
                settings.database = url
            })
        let store = world.core.storeForTesting
        return (
            world,
            {
                await store.close()
                guard let maintenance = try? await PostgresDatabase.connect(url: base, logger: nil) else { return }
                try? await maintenance.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
                await maintenance.close()
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
