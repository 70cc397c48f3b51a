import Foundation
import LifeSignalStore

/// A fresh PostgreSQL database `t_<random>` on the test server (`LIFESIGNAL_TEST_POSTGRES_URL`),
/// for one test: `url` opens it, `drop()` removes it (with whatever connections are left).
public struct ScratchPostgres: Sendable {
    /// The test server's URL the database was made on.
    public let base: String
    public let name: String
    public let url: String

    /// Makes one on the test server; fails when no server is configured.
    public static func make() async throws -> ScratchPostgres {
        guard let base = TestBackend.postgresURL else {
            throw WorldError("no PostgreSQL test server: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")")
        }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let maintenance = try await PostgresDatabase.connect(url: base, logger: nil)
        do { try await maintenance.executeScript("CREATE DATABASE \(name)") } catch {
            await maintenance.close()
            throw error
        }
        await maintenance.close()
        guard var components = URLComponents(string: base) else { throw WorldError("not a URL: \(base)") }
        components.path = "/\(name)"
        guard let url = components.string else { throw WorldError("not a URL: \(base)") }
        return ScratchPostgres(base: base, name: String(name), url: url)
    }

    /// Runs `body` with a fresh database's URL and drops the database afterwards, whether
    /// `body` threw or not.
    public static func with<Value>(_ body: (String) async throws -> Value) async throws -> Value {
        let database = try await make()
        do {
            let value = try await body(database.url)
            await database.drop()
            return value
        } catch {
            await database.drop()
            throw error
        }
    }

    public func drop() async {
        guard let maintenance = try? await PostgresDatabase.connect(url: base, logger: nil) else { return }
        try? await maintenance.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        await maintenance.close()
    }
}
