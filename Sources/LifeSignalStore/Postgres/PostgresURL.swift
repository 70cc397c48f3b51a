import Foundation
import PostgresNIO

/// A parsed `postgres://user:password@host:port/database?param=value` (or `postgresql://`).
///
/// Parameters (all optional):
/// - `sslmode`: `disable`, `allow`/`prefer` (TLS when the server offers it: the default for
///   a server on this machine), `require` (TLS, certificate not checked, as libpq: the default
///   for any other host, so a password never crosses a network in clear), `verify-ca`/
///   `verify-full` (TLS, checked).
/// - `connect_timeout`: seconds to establish a connection (default 2: an outage is reported
///   quickly, and the pool keeps trying in the background).
/// - `statement_timeout`: milliseconds a statement may run before the server cancels it (default 30000; 0 = none).
/// - `pool_max_conns`: the most connections the pool opens (default 20).
/// - `application_name`: shown in `pg_stat_activity`.
/// - `named_statements`: `on` (the default) prepares each recurring statement once per
///   connection; `off` sends every statement unnamed, parsed and planned each time (for a
///   pooler in front of PostgreSQL that cannot keep a session's prepared statements).
/// - `check_in_statement`: `on` (the default) writes a check-in (its row, the person's row,
///   the timeline entry) and reads what follows it in one statement; `off` runs the statements
///   one by one, as SQLite does (for measuring one against the other).
/// - `host=/path/to/dir`: connect through the Unix socket in that directory instead of TCP.
public struct PostgresURL: Sendable, Equatable {
    public enum SSLMode: String, Sendable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var unixSocketDirectory: String?
    public var username: String
    public var password: String?
    public var database: String?
    public var sslMode: SSLMode
    public var connectTimeout: Duration
    public var statementTimeout: Duration?
    public var maximumConnections: Int
    public var applicationName: String?
    public var namedStatements: Bool
    public var checkInStatement: Bool

    public init(_ url: String) throws {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"),
            let components = URLComponents(string: url)
        else { throw StoreError.unavailable("not a postgres:// URL") }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host.isEmpty ? "localhost" : host
        port = components.port ?? 5432
        username = components.user ?? "postgres"
        password = components.password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
        sslMode = Self.isLocal(self.host) ? .prefer : .require
        connectTimeout = .seconds(2)
        statementTimeout = .milliseconds(30_000)
        maximumConnections = 20
        namedStatements = true
        checkInStatement = true
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else { throw StoreError.unavailable("unknown sslmode \(value)") }
                sslMode = mode
            case "connect_timeout":
                guard let seconds = Double(value), seconds > 0 else { throw StoreError.unavailable("bad connect_timeout") }
                connectTimeout = .milliseconds(Int64(seconds * 1000))
            case "statement_timeout":
                guard let milliseconds = Int64(value), milliseconds >= 0 else {
                    throw StoreError.unavailable("bad statement_timeout")
                }
                statementTimeout = milliseconds == 0 ? nil : .milliseconds(milliseconds)
            case "pool_max_conns":
                guard let count = Int(value), count > 0 else { throw StoreError.unavailable("bad pool_max_conns") }
                maximumConnections = count
            case "application_name":
                applicationName = value
            case "named_statements":
                switch value.lowercased() {
                case "on", "true", "1": namedStatements = true
                case "off", "false", "0": namedStatements = false
                default: throw StoreError.unavailable("bad named_statements")
                }
            case "check_in_statement":
                switch value.lowercased() {
                case "on", "true", "1": checkInStatement = true
                case "off", "false", "0": checkInStatement = false
                default: throw StoreError.unavailable("bad check_in_statement")
                }
            case "host" where value.hasPrefix("/"):
                unixSocketDirectory = value
            default:
                break  // Unknown parameters are ignored, as most drivers do.
            }
        }
    }

    /// A host on this machine: loopback, or `localhost`.
    static func isLocal(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Where the server listens, for messages (no password).
    public var displayName: String {
        let place = unixSocketDirectory.map { "\($0)/.s.PGSQL.\(port)" } ?? "\(host):\(port)"
        return "\(username)@\(place)/\(database ?? username)"
    }

    private var startupParameters: [(String, String)] {
        var parameters: [(String, String)] = []
        if let statementTimeout {
            let milliseconds =
                statementTimeout.components.seconds * 1000
                + statementTimeout.components.attoseconds / 1_000_000_000_000_000
            parameters.append(("statement_timeout", "\(milliseconds)"))
        }
        if let applicationName { parameters.append(("application_name", applicationName)) }
        return parameters
    }

    private var tlsConfiguration: TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .verifyFull: break
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        default: tls.certificateVerification = .none
        }
        return tls
    }

    /// The pool's configuration.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let unixSocketDirectory {
            configuration = .init(
                unixSocketPath: "\(unixSocketDirectory)/.s.PGSQL.\(port)", username: username,
                password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch sslMode {
            case .disable: tls = .disable
            case .allow, .prefer: tls = .prefer(tlsConfiguration)
            case .require, .verifyCA, .verifyFull: tls = .require(tlsConfiguration)
            }
            configuration = .init(
                host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = maximumConnections
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// A single connection's configuration (used to probe the server before the pool starts,
    /// so a wrong password or database fails at once with the server's reason).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let unixSocketDirectory {
            configuration = .init(
                unixSocketPath: "\(unixSocketDirectory)/.s.PGSQL.\(port)", username: username,
                password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch sslMode {
            case .disable: tls = .disable
            case .allow, .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration))
            case .require, .verifyCA, .verifyFull: tls = .require(try NIOSSLContext(configuration: tlsConfiguration))
            }
            configuration = .init(
                host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
        let seconds = connectTimeout.components.seconds
        configuration.options.connectTimeout = .milliseconds(
            seconds * 1000 + connectTimeout.components.attoseconds / 1_000_000_000_000_000)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }
}
