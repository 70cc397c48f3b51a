import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal daily-calls [list]|setup|cancel`: daily calls for someone without a
/// smartphone, which start when she agrees on the first call.
struct DailyCallsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daily-calls", abstract: "Set up daily calls for someone (a landline is fine); they start when she agrees.",
        subcommands: [List.self, Setup.self, Cancel.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The daily calls you set up, and where each stands.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let setups = try await context.dailyCalls.list()
                if context.json { return try Terminal.printJSON(setups) }
                if setups.isEmpty { return Terminal.print(Formatting.words("cli.dailyCalls.none")) }
                for setup in setups { Terminal.print(DailyCallsCommand.line(setup)) }
            }
        }
    }

    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask LifeSignal to call someone every day; she is called first to agree (1) or say no (2).")

        @OptionGroup var options: ClientOptions

        @Option(help: "Her first name (the call greets her by it).")
        var firstName: String

        @Option(help: "Her last name.")
        var lastName = ""

        @Option(help: "Her number, international format (a landline is fine).")
        var phone: String

        @Option(help: "When to call every day, HH:MM.")
        var time = "09:00"

        @Option(help: "Her IANA time zone (Europe/Berlin); default: this computer's.")
        var timeZone: String?

        func run() async throws {
            let zone = timeZone ?? TimeZone.current.identifier
            try await ClientContext.run(options) { context in
                let setup = try await context.dailyCalls.setUp(firstName, lastName, phone, time, zone)
                if context.json { return try Terminal.printJSON(setup) }
                Terminal.print(DailyCallsCommand.line(setup))
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take back a request she has not answered yet.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The request's id (see `lifesignal daily-calls --json`).")
        var id: String

        func run() async throws {
            guard let uuid = UUID(uuidString: id) else {
                throw ValidationError(Formatting.words("cli.dailyCalls.badID", ["id": id]))
            }
            try await ClientContext.run(options) { context in
                let setup = try await context.dailyCalls.cancel(DailyCallSetupID(uuid))
                if context.json { return try Terminal.printJSON(setup) }
                Terminal.print(DailyCallsCommand.line(setup))
            }
        }
    }

    /// "Mia Becker (+15551234599), every day at 09:30 Europe/Berlin: waiting for her yes".
    static func line(_ setup: DailyCallSetup) -> String {
        Formatting.words(
            "cli.dailyCalls.line",
            [
                "name": setup.name, "phone": setup.phone, "time": setup.time, "zone": setup.timeZone,
                "state": Formatting.words("cli.dailyCalls.state.\(setup.status.rawValue)"),
            ])
    }
}
