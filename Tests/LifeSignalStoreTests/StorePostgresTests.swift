import Foundation
import LifeSignalModels
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@_spi(Testing) @testable import LifeSignalStore

/// The store contract for what only PostgreSQL does: every test runs against SQLite (a real file) and, when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set, against PostgreSQL (a fresh database per test).
@Suite("Store contract: PostgreSQL", .timeLimit(.minutes(2)))
struct StorePostgresTests {
    // MARK: PostgreSQL specifics

    /// Connecting to `url` fails with `.unavailable`, well inside 30 seconds.
    static func expectUnavailableSoon(_ url: String) async {
        let started = ContinuousClock.now
        do {
            let database = try await PostgresDatabase.connect(url: url, logger: nil)
            await database.close()
            Issue.record("connected to \(url)")
        } catch let error as StoreError {
            guard case .unavailable = error else {
                Issue.record("expected .unavailable, got \(error)")
                return
            }
        } catch {
            Issue.record("expected a StoreError, got \(error)")
        }
        #expect(ContinuousClock.now - started < .seconds(30), "\(url)")
    }

    @Test("ping answers true while open", arguments: Backend.all)
    func ping(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, _ in
            #expect(await database.ping())
        }
    }

    @Test("an unreachable PostgreSQL fails fast with .unavailable")
    func unreachable() async throws {
        // A closed local port (refused at once) and an unroutable address (bounded by connect_timeout).
        for url in [
            "postgres://u:p@127.0.0.1:1/db?sslmode=disable",
            "postgres://u:p@10.255.255.1:5432/db?sslmode=disable&connect_timeout=1",
        ] {
            await Self.expectUnavailableSoon(url)
        }
    }

    @Test("a server that accepts but never answers fails within connect_timeout")
    func silentServer() async throws {
        // A listening socket nobody accepts on: the kernel completes the TCP handshake, then
        // the startup message is never answered.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        #expect(bound == 0)
        #expect(listen(fd, 16) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let started = ContinuousClock.now
        do {
            let database = try await PostgresDatabase.connect(
                url: "postgres://u:p@127.0.0.1:\(port)/db?sslmode=disable&connect_timeout=1", logger: nil)
            await database.close()
            Issue.record("connected to a silent server")
        } catch let error as StoreError {
            guard case .unavailable = error else { Issue.record("expected .unavailable, got \(error)"); return }
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900))
        #expect(elapsed < .seconds(30))
    }

    @Test("a wrong password or database fails fast with .unavailable", arguments: Backend.postgresOnly)
    func wrongCredentials(_ backend: Backend) async throws {
        let base = try #require(Backend.postgresURL)
        var wrongPassword = try #require(URLComponents(string: base))
        wrongPassword.password = "definitely-wrong"
        var wrongDatabase = try #require(URLComponents(string: base))
        wrongDatabase.path = "/no_such_database_here"
        for url in [wrongPassword.string, wrongDatabase.string].compactMap({ $0 }) {
            await Self.expectUnavailableSoon(url)
        }
    }

    @Test("LISTEN/NOTIFY carries events across instances", arguments: Backend.postgresOnly)
    func listenNotify(_ backend: Backend) async throws {
        try await withDatabase(backend) { database, test in
            let listener = try #require(database as? PostgresDatabase)
            let sender = try #require(try await test.open() as? PostgresDatabase)
            let events = try await listener.listen(channel: "user.events")
            let other = try await listener.listen(channel: "other")
            try await sender.notify(channel: "user.events", payload: "one")
            try await sender.notify(channel: "other", payload: "not for the first")
            try await sender.notify(channel: "user.events", payload: "two ' \" ?")
            // A notification inside a write is delivered only if it commits.
            _ = try? await sender.write { db in
                try await db.execute("SELECT pg_notify(?, ?)", "user.events", "rolled back")
                throw Boom()
            }
            _ = try await sender.write { db in
                try await db.execute("SELECT pg_notify(?, ?)", "user.events", "committed")
            }
            var received: [String] = []
            for await payload in events {
                received.append(payload)
                if received.count == 3 { break }
            }
            #expect(received == ["one", "two ' \" ?", "committed"])
            var otherIterator = other.makeAsyncIterator()
            #expect(await otherIterator.next() == "not for the first")
            await #expect(throws: StoreError.self) { try await sender.notify(channel: "bad\"name", payload: "") }
            await sender.close()
        }
    }

    @Test("placeholders are numbered outside quotes and comments; scripts split at top-level semicolons")
    func placeholders() {
        #expect(PostgresSQLText.numbered("SELECT ? , ?").sql == "SELECT $1 , $2")
        let tricky = "SELECT '?''?', \"a?\", E'\\'?', $$?$$, $t$ ? $t$, ? -- ?\n/* ? /* ? */ ? */ FROM x WHERE y = ?"
        let numbered = PostgresSQLText.numbered(tricky)
        #expect(numbered.count == 2)
        #expect(numbered.sql.hasSuffix("WHERE y = $2"))
        #expect(numbered.sql.contains(", $1 -- ?"))
        #expect(PostgresSQLText.numbered("SELECT x$1 FROM t WHERE a = ?").count == 1)
        #expect(
            PostgresSQLText.split("CREATE TABLE a (x TEXT DEFAULT ';');\n-- c;\nCREATE INDEX i ON a (x);  ;") == [
                "CREATE TABLE a (x TEXT DEFAULT ';')", "-- c;\nCREATE INDEX i ON a (x)",
            ])
        #expect(PostgresSQLText.split("  -- only a comment\n") == [])
        #expect(PostgresDatabase.mustRunOutsideTransaction("create database t_1"))
        #expect(PostgresDatabase.mustRunOutsideTransaction("CREATE INDEX CONCURRENTLY i ON t (x)"))
        #expect(!PostgresDatabase.mustRunOutsideTransaction("CREATE TABLE t (x TEXT)"))
    }

    @Test("postgres URLs parse")
    func urls() throws {
        let url = try PostgresURL(
            "postgresql://us%40er:p%3Ass@db.example:6543/app?sslmode=require&connect_timeout=2&statement_timeout=0&pool_max_conns=7")
        #expect(url.username == "us@er")
        #expect(url.password == "p:ss")
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.database == "app")
        #expect(url.sslMode == .require)
        #expect(url.connectTimeout == .seconds(2))
        #expect(url.statementTimeout == nil)
        #expect(url.maximumConnections == 7)
        let plain = try PostgresURL("postgres://me@localhost")
        #expect(plain.port == 5432)
        #expect(plain.database == nil)
        #expect(plain.password == nil)
        #expect(plain.sslMode == .prefer)
        // A server elsewhere gets TLS unless the URL says otherwise: no password in clear.
        #expect(try PostgresURL("postgres://me@db.example/app").sslMode == .require)
        #expect(try PostgresURL("postgres://me@127.0.0.1/app").sslMode == .prefer)
        #expect(try PostgresURL("postgres://me@[::1]/app").sslMode == .prefer)
        #expect(try PostgresURL("postgres://me@db.example/app?sslmode=disable").sslMode == .disable)
        #expect(throws: StoreError.self) { try PostgresURL("mysql://x@y/z") }
        #expect(throws: StoreError.self) { try PostgresURL("postgres://x@y/z?sslmode=sometimes") }
    }
}
