import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import LifeSignalTestSupport
import Testing

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
    static func signUp(_ world: TestWorld, server: URL, first: String, phone: String) async throws -> (Device, User) {
        let device = Device(server: server)
        _ = try await device.auth.requestCode(phone: phone)
        let code = try #require(world.code(for: phone))
        let signIn = try await device.auth.verifyCode(phone: phone, code: code)
        #expect(signIn.isNewUser)
        let user = try await device.users.updateProfile(changes: ProfileChanges(firstName: first, lastName: "Tester"))
        return (device, user)
    }
}
