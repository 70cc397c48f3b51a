import Foundation
import LifeSignalCore

/// Who this server instance is across restarts, whatever host and port it comes back on: its
/// delivery leases are owned by `<id>#<boot id>`, so a restart recognises its dead run's leases
/// by the `<id>#` they start with and takes them back at once.
///
/// Where the id comes from, first found wins: `--instance-id` / `LIFESIGNAL_INSTANCE_ID`; on
/// SQLite, the file beside the database (`<database>.instance`), made on first start (one file
/// has one server, so the file is its identity); on PostgreSQL, a new id for this run, logged —
/// its peers take its leases over 30 s after it dies instead of its restart at once.
public struct InstanceIdentity: Sendable, Equatable {
    /// The stable identity.
    public var id: String
    /// This run of it.
    public var bootID: String
    /// Whether the id was made for this run alone (PostgreSQL without `LIFESIGNAL_INSTANCE_ID`).
    public var generated: Bool

    /// What this instance's delivery leases start with, in every run.
    public var stem: String { id + "#" }
    /// This run's delivery-lease owner, and its id among the instances' heartbeats.
    public var owner: String { stem + bootID }

    /// Whether `id` may name an instance: 1–64 letters, digits, `.`, `_`, `-` or `:` (never `#`,
    /// which ends the stem).
    public static func isValid(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || [45, 46, 58, 95].contains(byte)
            }
    }

    /// The identity `config` gives this run (see the type's description).
    public static func resolve(_ config: AppConfiguration, bootID: String = processBootID) throws -> InstanceIdentity {
        if let id = config.instanceID {
            guard isValid(id) else {
                throw ConfigurationError("LIFESIGNAL_INSTANCE_ID must be 1–64 letters, digits, '.', '_', '-' or ':', got \(id)")
            }
            return InstanceIdentity(id: id, bootID: bootID, generated: false)
        }
        let made = "i-" + String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12))
        guard let database = config.sqlitePath else { return InstanceIdentity(id: made, bootID: bootID, generated: true) }
        let path = database + ".instance"
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard isValid(id) else { throw ConfigurationError("\(path) does not hold an instance id (got \(id))") }
            return InstanceIdentity(id: id, bootID: bootID, generated: false)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data((made + "\n").utf8)) else {
            throw ConfigurationError("could not write the instance id to \(path)")
        }
        return InstanceIdentity(id: made, bootID: bootID, generated: false)
    }

    /// This process's run: 8 random hex digits, the same for every application it builds (as
    /// the lease owner always was), so a test building two on one file never takes its own
    /// leases back from itself.
    public static let processBootID = String(UUID().uuidString.lowercased().prefix(8))
}

extension AppConfiguration {
    /// The SQLite file this configuration opens; nil for PostgreSQL.
    var sqlitePath: String? {
        if database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") { return nil }
        return database.hasPrefix("sqlite://") ? String(database.dropFirst("sqlite://".count)) : database
    }
}
