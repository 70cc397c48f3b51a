import Foundation
import LifeSignalCore
import LifeSignalTestSupport
import LifeSignalModels
import LifeSignalStore
import Logging
import Synchronization

/// A real service on a real SQLite file in a temporary directory, with a clock that moves
/// only when the test says so, and an SMS outbox the test can read.
final class TestWorld: Sendable, CoreUseCases {
    let directory: URL
    let store: Store
    let clock: ManualClock
    let core: ServiceCore
    let sentCodes = CodeBook()

    static let start = ISODate.parse("2026-11-21T08:00:00Z")!

    init(configuration: ServiceConfiguration = .init()) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try await Store.open(directory.appendingPathComponent("test.sqlite").path)
        clock = ManualClock(Self.start)
        let clock = self.clock
        var environment = ServiceEnvironment.live(logger: Logger(label: "test"))
        environment.now = { clock.now }
        let codes = sentCodes
        core = ServiceCore(
            store: store, environment: environment, configuration: configuration,
            codeSender: SignInCodeSender { phone, code in codes.record(code, for: phone) })
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func code(for phone: String) -> String? { sentCodes.code(for: phone) }

    /// Signs a person in with the code "sent" to them and gives their names.
    func signUp(_ first: String, phone: String, last: String = "Tester") async throws -> Caller {
        _ = try await accounts.requestSignInCode(phone: phone, clientAddress: "test-\(phone)")
        let signIn = try await accounts.verifySignInCode(phone: phone, code: code(for: phone)!, deviceName: "test")
        var caller = try await accounts.authenticate(token: signIn.token)
        caller.user = try await profiles.updateProfile(caller, ProfileChanges(firstName: first, lastName: last))
        return caller
    }

    /// Re-reads the caller so their user record is current.
    func refresh(_ caller: Caller) async throws -> Caller {
        var fresh = caller
        fresh.user = try await profiles.profile(caller)
        return fresh
    }

    /// Adds a channel and, for a text, call or e-mail channel, proves it with the code sent to it.
    @discardableResult
    func addProvedChannel(_ caller: Caller, _ registration: ChannelRegistration) async throws -> Channel {
        let channel = try await channels.addChannel(caller, registration)
        guard !channel.isVerified else { return channel }
        let sent = try await notifications(caller).first { $0.type == .channelCode }
        let code = String(sent?.title.split(separator: " ").last ?? "")
        return try await channels.verifyChannel(caller, id: channel.id, code: code)
    }

    /// Makes `responder` a responder of `dependent`: the dependent asks, the responder accepts.
    func link(responder: Caller, dependent: Caller) async throws {
        let request = try await contacts.addContact(dependent, code: responder.user.contactCode, roles: .responder)
        _ = try await contacts.acceptContactRequest(responder, id: request.id)
    }

    func notifications(_ caller: Caller) async throws -> [Notification] {
        try await notifications.notifications(caller, category: nil, unreadOnly: false, before: nil, limit: 100).items
    }
}

/// The SMS codes "sent" during a test, by phone number.
final class CodeBook: Sendable {
    private let codes = Mutex<[String: String]>([:])

    func record(_ code: String, for phone: String) { codes.withLock { $0[phone] = code } }
    func code(for phone: String) -> String? { codes.withLock { $0[phone] } }
}
