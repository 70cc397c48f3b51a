import Foundation
import Hummingbird
import HummingbirdTesting
@_spi(Testing) import LifeSignalCore
import LifeSignalModels
@_spi(Testing) import LifeSignalServer
import LifeSignalStore

/// The one world every test target builds on: the server exactly as `buildApplication` makes
/// it, over a real SQLite file in a temporary directory, with a clock that moves only when the
/// test says so and the sign-in codes caught in a code book. Core tests call the use cases
/// (`checkIns`, `contacts`…, see `CoreUseCases`);
/// server tests drive `app` in memory (`test`), or on a socket where one matters
/// (`test(.live)`, `serve`); client and CLI tests point live clients or the executable at
/// `serve`'s address.
public final class TestWorld: Sendable, CoreUseCases {
    public static let start = ISODate.parse("2026-11-21T08:00:00Z")!

    public let directory: URL
    public let clock: ManualClock
    public let codes: CodeBook
    public let app: LifeSignalApplication
    /// The core behind the app's routes' use cases, for arranging and inspecting.
    public let core: ServiceCore

    /// - Parameters:
    ///   - configuration: the service's settings (limits, channel address rules…).
    ///   - server: changes to the server's configuration (a PostgreSQL database, Twilio's
    ///     settings, trusted proxies…); by default a SQLite file here, port 0, no engine or
    ///     retention (tests run those themselves), no channel settings from the environment.
    ///   - dependencies: changes to what is injected (telemetry, a logger, another code sender).
    ///   - clock: the clock, when several worlds share one (see `instances`); by default one of
    ///     its own at `start`.
    public init(
        configuration: ServiceConfiguration = .init(),
        server: (inout AppConfiguration) throws -> Void = { _ in },
        dependencies: (inout AppDependencies) -> Void = { _ in },
        clock: ManualClock? = nil
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let clock = clock ?? ManualClock(Self.start)
        let codes = CodeBook()
        var settings = AppConfiguration()
        settings.database = directory.appendingPathComponent("test.sqlite").path
        settings.port = 0
        settings.runEngine = false
        settings.observability.retention = false
        // Tests do not time the health probe (its cut-off has a test of its own); on a loaded
        // machine 0.8 s is not enough for an in-process server's first checks.
        settings.observability.healthProbeLimit = .seconds(10)
        settings.channels = ChannelSettings(environment: [:])
        try server(&settings)
        var codeSender = SignInCodeSender { phone, code in codes.record(code, for: phone) }
        codeSender.showChannelCode = { address, code in codes.record(code, for: "channel:" + address) }
        var injected = AppDependencies(clock: clock, codeSender: codeSender, serviceConfiguration: configuration)
        dependencies(&injected)
        self.directory = directory
        self.clock = clock
        self.codes = codes
        do {
            app = try await buildApplication(settings, dependencies: injected)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        core = app.core
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The store under the core, for tests that arrange or inspect rows directly.
    public var store: Store { core.storeForTesting }

    /// Runs `body` against the app in memory (`app.test(.router)`).
    public func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await app.test(.router, body)
    }

    /// Runs `body` against the app set up as `setup` says: `.live` listens on a free port of
    /// 127.0.0.1, for what needs a socket (event streams, the peer's address).
    public func test<Value: Sendable>(
        _ setup: TestingSetup, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await app.test(setup, body)
    }

    /// Runs `body` while the app listens on a free port of 127.0.0.1, given its address.
    public func serve(_ body: @Sendable (URL) async throws -> Void) async throws {
        try await app.test(.live) { client in
            guard let port = client.port else { throw WorldError("the live test client has no port") }
            try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
    }

    /// The last sign-in code sent to `phone`.
    public func code(for phone: String) -> String? { codes.code(for: phone) }

    /// The last code that proves a channel to `address` (it goes nowhere else).
    public func channelCode(for address: String) -> String? { codes.code(for: "channel:" + address) }

    /// Waits until a code was sent to `phone` (returns at once if one was already).
    public func waitForCode(_ phone: String) async throws -> String {
        let codes = self.codes
        return try await withFailureDeadline(seconds: 10, "no code was sent to \(phone)") { try await codes.next(for: phone) }
    }
}

struct WorldError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
