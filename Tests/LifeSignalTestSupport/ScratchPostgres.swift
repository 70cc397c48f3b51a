import Foundation
import LifeSignalStore

/// A fresh PostgreSQL database `t_<random>` on the test server (`LIFESIGNAL_TEST_POSTGRES_URL`),
/// for one test: `url` opens it, `drop()` removes it (the store's `ScratchDatabase`).
public enum ScratchPostgres {
    /// Makes one on the test server; fails when no server is configured.
    public static func make() async throws -> ScratchDatabase {
        guard let base = TestBackend.postgresURL else {
            throw WorldError("no PostgreSQL test server: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")")
        }
        return try await ScratchDatabase.make(next: base)
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
}
