import ArgumentParser
import Foundation
import LifeSignalModels
import LifeSignalServer

/// The server's settings as flags, shared by `serve` and `config check`: flags first, then
/// `LIFESIGNAL_*` environment variables, then the settings file, then defaults.
struct ServerOptions: ParsableArguments {
    @Option(help: "A JSON settings file: the LIFESIGNAL_* names without the prefix, in lower case, as keys. Env: LIFESIGNAL_CONFIG.")
    var config: String?

    @Option(help: "Address to listen on (0.0.0.0 for every interface). Env: LIFESIGNAL_HOST.")
    var host: String?

    @Option(help: "Port to listen on. Env: LIFESIGNAL_PORT.")
    var port: Int?

    @Option(help: "SQLite file, or postgres://user:pass@host:port/db. Env: LIFESIGNAL_DATABASE.")
    var database: String?

    @Option(help: "Channel for people with none registered: log, sms, email… Env: LIFESIGNAL_DEFAULT_CHANNEL.")
    var defaultChannel: String?

    @Option(help: "Public address of the web app (https), for links in messages. Env: LIFESIGNAL_PUBLIC_URL.")
    var publicURL: String?

    @Flag(help: "Development: sign-in codes and log-channel messages are printed here instead of sent. Env: LIFESIGNAL_DEV=1.")
    var dev = false

    @Option(
        help: "Comma-separated CIDRs of reverse proxies whose Forwarded / X-Forwarded-For are believed. Env: LIFESIGNAL_TRUSTED_PROXIES.")
    var trustedProxies: String?

    @Flag(help: "Test mode (needs --dev and a loopback host): the clock stands still and POST /test/clock/advance moves it.")
    var testClock = false

    @Option(help: "This instance's stable identity, which its delivery leases carry across restarts. Env: LIFESIGNAL_INSTANCE_ID.")
    var instanceID: String?

    @Flag(help: "Serve only; leave the escalation engine to other instances.")
    var noEngine = false

    /// The one configuration value, or a `ValidationError` naming the bad setting.
    func configuration() async throws -> AppConfiguration {
        var config: AppConfiguration
        do {
            let environment = ProcessInfo.processInfo.environment
            config = try AppConfiguration.fromEnvironment(
                try await SettingsFile.effectiveEnvironment(
                    file: self.config ?? environment["LIFESIGNAL_CONFIG"], environment: environment))
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        if let host { config.host = host }
        if let port {
            guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
            config.port = port
        }
        if let database { config.database = database }
        if let instanceID { config.instanceID = instanceID }
        if let defaultChannel {
            guard let kind = ChannelKind(rawValue: defaultChannel) else {
                throw ValidationError("--default-channel must be one of \(ChannelKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            config.defaultChannel = kind
        }
        if let publicURL { config.publicBaseURL = publicURL }
        if dev { config.development = true }
        if let trustedProxies {
            switch IPNetwork.list(trustedProxies) {
            case .success(let networks): config.trustedProxies = networks
            case .failure(let error): throw ValidationError("--trusted-proxies: \(error.description)")
            }
        }
        config.testClock = testClock
        config.runEngine = !noEngine
        return config
    }
}

/// Prints the start-up check's problems, one line each on standard error, and fails with
/// exit code 78 (EX_CONFIG) when there are any.
func refuseProblems(_ config: AppConfiguration) throws {
    let problems = config.problems()
    guard !problems.isEmpty else { return }
    for problem in problems { Terminal.error("lifesignal: \(problem)") }
    throw ExitCode(78)
}
