import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// The live clients a command uses, over one `APIClient` and the token file of the config
/// directory (or `LIFESIGNAL_TOKEN` when set: then nothing is read from or written to the
/// file), and the error handling every client command shares.
struct ClientContext {
    let options: ClientOptions
    let server: URL
    let tokens: TokenStorageClient
    let api: APIClient

    init(_ options: ClientOptions) throws {
        self.options = options
        server = try options.serverURL
        tokens =
            if let token = options.environmentToken { .inMemory(token) } else {
                .file(at: ConfigDirectory.current().appendingPathComponent("token"))
            }
        let tokens = tokens
        // The server's refusals come back in the terminal's language, like the CLI's own words.
        api = APIClient(baseURL: server, token: { try tokens.load() }, language: CLIWords.computerLanguage?.tag)
    }

    var json: Bool { options.json }
    var auth: AuthClient { .live(api: api, tokens: tokens, deviceName: "CLI on \(ProcessInfo.processInfo.hostName)") }
    var checkIns: CheckInClient { .live(api: api, queue: CheckInQueue(file: CheckInQueue.defaultFile), source: .cli) }
    var users: UserClient { .live(api: api, tokens: tokens) }
    var contacts: ContactClient { .live(api: api) }
    var pings: PingClient { .live(api: api) }
    var alerts: AlertClient { .live(api: api) }
    var location: LocationClient { .live(api: api) }
    var notifications: NotificationClient { .live(api: api) }
    var settings: SettingsClient { .live(api: api) }
    var ladders: LadderClient { .live(api: api) }
    var dailyCalls: DailyCallClient { .live(api: api) }
    var deviceLinks: DeviceLinkClient { .live(api: api) }
    var plans: PlanClient { .live(api: api, source: .cli) }
    var pauses: PauseClient { .live(api: api) }

    /// Runs a command's body and turns its failure into the documented exit code, with the
    /// message on stderr.
    static func run(_ options: ClientOptions, _ body: (ClientContext) async throws -> Void) async throws {
        let context = try ClientContext(options)
        do {
            try await body(context)
        } catch let error as APIError {
            throw context.exit(for: error)
        } catch let failure as CommandFailure {
            Terminal.error(failure.message)
            throw ClientExit.apiError
        }
    }

    func exit(for error: APIError) -> ExitCode {
        switch error {
        case .notSignedIn:
            Terminal.error("Not signed in. Run `lifesignal sign-in` first.")
            return ClientExit.notSignedIn
        case let .server(401, _, message, _):
            if options.environmentToken != nil {
                Terminal.error("\(message) (the token in LIFESIGNAL_TOKEN)")
            } else {
                Terminal.error("\(message) Run `lifesignal sign-in` again.")
            }
            return ClientExit.notSignedIn
        case let .offline(detail):
            Terminal.error("Can't reach the LifeSignal server at \(server.absoluteString) (\(detail)).")
            return ClientExit.unreachable
        case .server, .invalidResponse:
            Terminal.error(error.message)
            return ClientExit.apiError
        }
    }
}
