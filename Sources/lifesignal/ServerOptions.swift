import ArgumentParser
import Foundation
import LifeSignalModels
import LifeSignalServer

/// The server's settings as flags, shared by `serve` and `config check`: flags first, then
/// `LIFESIGNAL_*` environment variables, then the settings file, then defaults. Each flag is the
/// setting of the same name (`--port` is `LIFESIGNAL_PORT`), checked by the same parser.
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

    /// The flags given, by the `LIFESIGNAL_*` names they stand for (without the prefix).
    var settings: [String: String] {
        var flags: [String: String] = [:]
        flags["HOST"] = host
        flags["PORT"] = port.map(String.init)
        flags["DATABASE"] = database
        flags["INSTANCE_ID"] = instanceID
        flags["DEFAULT_CHANNEL"] = defaultChannel
        flags["PUBLIC_URL"] = publicURL
        flags["TRUSTED_PROXIES"] = trustedProxies
        if dev { flags["DEV"] = "1" }
        return flags
    }

    /// The one configuration value, or a `ValidationError` naming the bad setting. Flags, the
    /// environment and the settings file go through one reader and one parser (`SettingsFile`).
    func configuration() async throws -> AppConfiguration {
        var config: AppConfiguration
        do {
            let environment = ProcessInfo.processInfo.environment
            config = try AppConfiguration.fromEnvironment(
                try await SettingsFile.effectiveEnvironment(
                    file: self.config ?? environment["LIFESIGNAL_CONFIG"], environment: environment, flags: settings))
        } catch let error as ConfigurationError {
            // A bad flag is named as the setting it stands for; say which flag it was.
            let flag = settings.keys.sorted().first { error.description.hasPrefix("LIFESIGNAL_\($0) ") }
            throw ValidationError(
                error.description + (flag.map { " (given as --\($0.lowercased().replacingOccurrences(of: "_", with: "-")))" } ?? ""))
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
