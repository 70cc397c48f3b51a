import Foundation
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalCore
import LifeSignalTestSupport
import LifeSignalModels
import LifeSignalServer
import LifeSignalStore
import Logging
import Synchronization
import Testing

/// A real server over a real SQLite file on a real socket, with the SMS codes captured,
/// and live clients pointed at it.
final class ClientWorld: Sendable, CoreUseCases {
    let directory: URL
    let core: ServiceCore
    let clock = ManualClock(ISODate.parse("2026-11-21T08:00:00Z")!)
    let codes = SentCodes()

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try await Store.open(directory.appendingPathComponent("client.sqlite").path)
        var environment = ServiceEnvironment.live(logger: Logger(label: "client-test"))
        let clock = self.clock
        environment.now = { clock.now }
        let codes = self.codes
        core = ServiceCore(
            store: store, environment: environment,
            codeSender: SignInCodeSender { phone, code in codes.record(phone, code) })
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Runs `body` while the server listens on a free port of 127.0.0.1.
    func serve(_ body: @Sendable (URL) async throws -> Void) async throws {
        let app = Application(
            router: buildRouter(core: core, clock: clock),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
    }

    func code(for phone: String) -> String? { codes.code(for: phone) }
}

/// An address where nothing listens: connections are refused at once.
let unreachableServer = URL(string: "http://127.0.0.1:1")!

/// One person's device: a token store and the live clients over one API client.
struct Device: Sendable {
    let tokens: TokenStorageClient
    let api: APIClient

    init(server: URL, tokens: TokenStorageClient = .inMemory()) {
        self.tokens = tokens
        self.api = APIClient(baseURL: server, token: { try tokens.load() }, timeout: .seconds(5))
    }

    var auth: AuthClient { .live(api: api, tokens: tokens, deviceName: "tests") }
    var users: UserClient { .live(api: api, tokens: tokens) }
    var contacts: ContactClient { .live(api: api) }
    var pings: PingClient { .live(api: api) }
    var alerts: AlertClient { .live(api: api) }
    var notifications: NotificationClient { .live(api: api) }
    var settings: SettingsClient { .live(api: api) }
    func checkIns(queue: CheckInQueue = CheckInQueue()) -> CheckInClient { .live(api: api, queue: queue) }

    /// Signs up through the clients and sets a name.
    static func signUp(_ world: ClientWorld, server: URL, first: String, phone: String) async throws -> (Device, User) {
        let device = Device(server: server)
        _ = try await device.auth.requestCode(phone: phone)
        let code = try #require(world.code(for: phone))
        let signIn = try await device.auth.verifyCode(phone: phone, code: code)
        #expect(signIn.isNewUser)
        let user = try await device.users.updateProfile(changes: ProfileChanges(firstName: first, lastName: "Tester"))
        return (device, user)
    }
}

/// The SMS codes the server sent, by phone number.
final class SentCodes: Sendable {
    private let codes = Mutex<[String: String]>([:])

    func record(_ phone: String, _ code: String) { codes.withLock { $0[phone] = code } }
    func code(for phone: String) -> String? { codes.withLock { $0[phone] } }
}
