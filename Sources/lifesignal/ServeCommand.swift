import Foundation
import ArgumentParser
import Hummingbird
import LifeSignalModels
import LifeSignalServer
import ServiceLifecycle

/// `lifesignal serve`: the server, the web app and the escalation engine in one process.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the server, the web app and the escalation engine.",
        discussion: """
            Without --dev the server needs a real sign-in code sender (LIFESIGNAL_TWILIO_ACCOUNT_SID, \
            LIFESIGNAL_TWILIO_AUTH_TOKEN, LIFESIGNAL_TWILIO_FROM) and refuses to start otherwise. \
            `lifesignal config check` shows the effective settings.
            """)

    @OptionGroup var options: ServerOptions

    @Option(help: "Log format: text, or json (one object per line). Env: LIFESIGNAL_LOG_FORMAT.")
    var logFormat: String?

    func run() async throws {
        var config = try await options.configuration()
        if let logFormat {
            guard let format = LogFormat(rawValue: logFormat) else { throw ValidationError("--log-format must be text or json") }
            config.observability.logFormat = format
        }
        try refuseProblems(config)
        do {
            let environment = try await SettingsFile.effectiveEnvironment(
                file: options.config ?? ProcessInfo.processInfo.environment["LIFESIGNAL_CONFIG"],
                environment: ProcessInfo.processInfo.environment)
            let loaded = try ServerKey.load(config, environment: environment)
            config.serverKey = loaded?.key
            // Histories written before sealing are sealed once: with a key made now, or when asked.
            config.sealExistingHistory = loaded?.created == true || environment["LIFESIGNAL_SEAL_EXISTING_HISTORY"] == "1"
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
        // Process-wide, once: the log format, and swift-metrics into the registry /metrics shows.
        config.observability.logFormat.bootstrap()
        for line in config.banner() { Terminal.error(line) }
        let app = try await buildApplication(config, dependencies: AppDependencies(telemetry: .bootstrapped()))
        try await ServiceGroup(configuration: Self.serviceGroup(app)).run()
    }

    /// SIGTERM or SIGINT stops the server gracefully: the delivery worker gives back what it has
    /// not started and lets sends in flight finish (up to `DeliveryService.defaultShutdownGrace`),
    /// the HTTP server drains, the database closes. A shutdown that still has not ended after
    /// ``maximumShutdown`` is cancelled, and one whose cancellation hangs ends the process: a
    /// deploy or `systemctl restart` never waits for ever on a stuck dependency (a PostgreSQL
    /// statement that never answered once kept a process alive for an hour).
    static func serviceGroup(_ app: some ApplicationProtocol & Service) -> ServiceGroupConfiguration {
        var configuration = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger)
        configuration.maximumGracefulShutdownDuration = maximumShutdown
        configuration.maximumCancellationDuration = .seconds(5)
        return configuration
    }

    /// Graceful shutdown's bound: the worker's send grace and the HTTP drain, with margin.
    static let maximumShutdown = Duration.seconds(25)
}
