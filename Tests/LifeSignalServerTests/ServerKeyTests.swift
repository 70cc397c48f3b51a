import Foundation
import LifeSignalServer
import Testing

/// The server's own key: made once beside a SQLite database (readable by the server alone),
/// the same on every later start, required from the operator for PostgreSQL.
struct ServerKeyTests {
    func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aSQLiteInstallMakesItsKeyOnceAndKeepsIt() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var config = AppConfiguration()
        config.database = "sqlite://" + folder.appendingPathComponent("life.sqlite").path
        let first = try #require(try ServerKey.load(config, environment: [:]))
        #expect(first.created && first.key.count == 32)
        let file = folder.appendingPathComponent("life.sqlite.key").path
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let again = try #require(try ServerKey.load(config, environment: [:]))
        #expect(!again.created && again.key == first.key)
    }

    @Test func postgresNeedsTheOperatorsKey() throws {
        var config = AppConfiguration()
        config.database = "postgres://lifesignal@db.example/lifesignal"
        #expect(throws: ConfigurationError.self) { try ServerKey.load(config, environment: [:]) }
        let hex = String(repeating: "ab", count: 32)
        let given = try #require(try ServerKey.load(config, environment: ["LIFESIGNAL_SERVER_KEY": hex]))
        #expect(given.key == Array(repeating: 0xab, count: 32) && !given.created)
        #expect(throws: ConfigurationError.self) { try ServerKey.load(config, environment: ["LIFESIGNAL_SERVER_KEY": "abc"]) }
        config.development = true
        #expect(try ServerKey.load(config, environment: [:]) == nil)
    }
}
