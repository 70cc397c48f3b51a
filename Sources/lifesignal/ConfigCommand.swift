import ArgumentParser
import LifeSignalServer

/// `lifesignal config`: the server's settings.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show and check the server's settings.",
        subcommands: [ConfigCheckCommand.self])
}

/// `lifesignal config check`: the effective settings (flags, environment, defaults) with
/// secrets masked, and the same start-up check `serve` runs; non-zero exit on a problem.
struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Print the effective server settings (secrets masked) and fail on contradictions, as serve would.")

    @OptionGroup var options: ServerOptions

    func run() async throws {
        let config = try await options.configuration()
        let settings = config.effectiveSettings()
        for (name, value) in settings { Terminal.print("\(name)=\(value)") }
        try refuseProblems(config)
        Terminal.print("ok")
    }
}
