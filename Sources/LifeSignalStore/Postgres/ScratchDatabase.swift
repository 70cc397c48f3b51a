import Foundation

/// A database of its own, made on the PostgreSQL server another URL names and dropped by
/// ``drop()`` (with whatever connections are left): what the test suites and the benchmarks
/// run on, so neither touches the database they were pointed at.
public struct ScratchDatabase: Sendable {
    /// The URL it was made next to.
    public let base: String
    public let name: String
    /// The URL that opens it.
    public let url: String

    /// Makes `<prefix><random>` on the server `base` names.
    public static func make(next base: String, prefix: String = "t_") async throws -> ScratchDatabase {
        guard var components = URLComponents(string: base) else { throw StoreError.sql("not a database URL: \(base)") }
        let name = prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let maintenance = try await PostgresDatabase.connect(url: base, logger: nil)
        do { try await maintenance.executeScript("CREATE DATABASE \(name)") } catch {
            await maintenance.close()
            throw error
        }
        await maintenance.close()
        components.path = "/\(name)"
        guard let url = components.string else { throw StoreError.sql("not a database URL: \(base)") }
        return ScratchDatabase(base: base, name: name, url: url)
    }

    public func drop() async {
        guard let maintenance = try? await PostgresDatabase.connect(url: base, logger: nil) else { return }
        try? await maintenance.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        await maintenance.close()
    }
}
