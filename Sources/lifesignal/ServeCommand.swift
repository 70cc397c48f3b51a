import ArgumentParser
import Hummingbird
import LifeSignalModels
import LifeSignalServer

/// `lifesignal serve`: the server, the web app and the escalation engine in one process.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the server, the web app and the escalation engine.")

    @Option(help: "Address to listen on (0.0.0.0 for every interface). Env: LIFESIGNAL_HOST.")
    var host: String?

    @Option(help: "Port to listen on. Env: LIFESIGNAL_PORT.")
    var port: Int?

    @Option(help: "SQLite file, or postgres://user:pass@host:port/db. Env: LIFESIGNAL_DATABASE.")
    var database: String?

    @Option(help: "Channel for people with none registered: log, sms, email… Env: LIFESIGNAL_DEFAULT_CHANNEL.")
    var defaultChannel: String?

    @Option(help: "Public address of the web app, for links in messages. Env: LIFESIGNAL_PUBLIC_URL.")
    var publicURL: String?

    @Flag(help: "Test mode: the clock stands still and POST /test/clock/advance moves it.")
    var testClock = false

    @Flag(help: "Serve only; leave the escalation engine to other instances.")
    var noEngine = false

    @Option(help: "Log format: text, or json (one object per line). Env: LIFESIGNAL_LOG_FORMAT.")
    var logFormat: String?

    func run() async throws {
        var config = try AppConfiguration.fromEnvironment()
        if let host { config.host = host }
        if let port {
            guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
            config.port = port
        }
        if let database { config.database = database }
        if let defaultChannel {
            guard let kind = ChannelKind(rawValue: defaultChannel) else {
                throw ValidationError("--default-channel must be one of \(ChannelKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            config.defaultChannel = kind
        }
        if let publicURL { config.publicBaseURL = publicURL }
        config.testClock = testClock
        config.runEngine = !noEngine
        if let logFormat {
            guard let format = LogFormat(rawValue: logFormat) else { throw ValidationError("--log-format must be text or json") }
            config.observability.logFormat = format
        }
        // Process-wide, once: the log format, and swift-metrics into the registry /metrics shows.
        config.observability.logFormat.bootstrap()
        let app = try await buildApplication(config, telemetry: .bootstrapped())
        try await app.runService()
    }
}
