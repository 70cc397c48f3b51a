import ArgumentParser
import Hummingbird
import LifeSignalModels
import LifeSignalServer

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

    func run() async throws {
        let config = try options.configuration()
        try refuseProblems(config)
        for line in config.banner() { Terminal.error(line) }
        let app = try await buildApplication(config)
        try await app.runService()
    }
}
