import Foundation
import LifeSignalCore

/// The server's own secret: 32 random bytes that key what is stored of sign-in codes. It lives
/// outside the database, so a copy of the database alone (a leaked backup, a read-only SQL
/// injection) cannot be used to try codes offline.
///
/// Where it comes from, first found wins: `LIFESIGNAL_SERVER_KEY` (64 hex digits), the file
/// `LIFESIGNAL_SERVER_KEY_FILE` names, else a file beside a SQLite database (`<database>.key`),
/// made on first start with mode 0600. Every instance on one PostgreSQL database must be given
/// the same key; `docs/OPERATIONS.md` says how to make and keep it.
public enum ServerKey {
    /// The key, and whether this start made it (then nothing was ever sealed with another).
    public static func load(_ config: AppConfiguration, environment: [String: String]) throws -> (key: [UInt8], created: Bool)? {
        if let hex = environment["LIFESIGNAL_SERVER_KEY"], !hex.isEmpty {
            return (try parse(hex, source: "LIFESIGNAL_SERVER_KEY"), false)
        }
        let path: String
        if let file = environment["LIFESIGNAL_SERVER_KEY_FILE"], !file.isEmpty {
            path = file
        } else if !config.database.hasPrefix("postgres") {
            let database = config.database.hasPrefix("sqlite://") ? String(config.database.dropFirst(9)) : config.database
            path = database + ".key"
        } else if config.development {
            return nil
        } else {
            throw ConfigurationError(
                "with PostgreSQL, give every instance the same server key: LIFESIGNAL_SERVER_KEY_FILE "
                    + "(make one with: openssl rand -hex 32 > /etc/lifesignal/server.key)")
        }
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            return (try parse(text.trimmingCharacters(in: .whitespacesAndNewlines), source: path), false)
        }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let made = FileManager.default.createFile(
            atPath: path, contents: Data(hex(key).utf8), attributes: [.posixPermissions: 0o600])
        guard made else { throw ConfigurationError("could not write the server key to \(path)") }
        return (key, true)
    }

    static func parse(_ hex: String, source: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { throw ConfigurationError("\(source) must hold 64 hex digits (32 bytes)") }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else {
                throw ConfigurationError("\(source) must hold 64 hex digits (32 bytes)")
            }
            bytes.append(byte)
        }
        return bytes
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
