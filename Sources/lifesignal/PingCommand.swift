import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal ping <dependent>`: ask a dependent "are you OK?"; `ping clear` withdraws it.
struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping", abstract: "Ask a dependent if they're OK, or withdraw the question.",
        subcommands: [Send.self, Clear.self], defaultSubcommand: Send.self)

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask a dependent if they're OK.")

        @OptionGroup var target: NamedDependent

        func run() async throws {
            try await target.run { context, dependent in
                let ping = try await context.pings.send(dependentID: dependent.userID)
                if context.json { return try Terminal.printJSON(ping) }
                Terminal.print(Formatting.words("cli.ping.sent", ["name": dependent.fullName]) + " [ping \(ping.id)]")
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Withdraw your pending ping of a dependent.")

        @OptionGroup var target: NamedDependent

        func run() async throws {
            try await target.run { context, dependent in
                guard let ping = dependent.outgoingPing else {
                    throw CommandFailure(Formatting.words("cli.ping.none", ["name": dependent.fullName]))
                }
                try await context.pings.clear(id: ping.id)
                if context.json { return try Terminal.printJSON(["cleared": ping.id]) }
                Terminal.print(Formatting.words("cli.ping.cleared", ["name": dependent.fullName]))
            }
        }
    }
}

/// `lifesignal respond`: answer pings (one, or all), which counts as a check-in.
struct RespondCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "respond", abstract: "Answer your responders' pings; counts as a check-in.")

    @OptionGroup var options: ClientOptions

    @Option(help: "Answer only this ping (default: all of them).")
    var ping: String?

    func run() async throws {
        let pingID = try ping.map { text in
            guard let id = PingID(string: text) else { throw ValidationError("--ping must be a ping id (a UUID), got \(text)") }
            return id
        }
        try await ClientContext.run(options) { context in
            let checkInID = CheckInID(UUID())
            let result =
                if let pingID { try await context.pings.answer(id: pingID, checkInID: checkInID) } else {
                    try await context.pings.answerAll(checkInID: checkInID)
                }
            if context.json { return try Terminal.printJSON(result) }
            Terminal.print(Formatting.words("cli.respond.done") + " " + Formatting.statusLine(result.status))
        }
    }
}

/// `lifesignal alert raise|clear`: the SOS.
struct AlertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert", abstract: "Raise or clear an emergency alert (SOS).", subcommands: [Raise.self, Clear.self])

    struct Raise: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Alert every responder on every channel, now.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let incident = try await context.alerts.raise()
                if context.json { return try Terminal.printJSON(incident) }
                Terminal.print(Formatting.words("cli.alert.raised", ["when": Formatting.time(incident.openedAt)]))
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "\"I'm safe\": clear your alert.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let status = try await context.alerts.clear()
                if context.json { return try Terminal.printJSON(status) }
                Terminal.print(Formatting.words("cli.alert.cleared") + " " + Formatting.statusLine(status))
            }
        }
    }
}

/// The dependent a `ping` is about, by id or name, with the client's options.
struct NamedDependent: ParsableArguments {
    @OptionGroup var options: ClientOptions

    @Argument(help: "The dependent's id or name.")
    var contact: String

    /// Runs `body` with the client and the dependent, once found.
    func run(_ body: (ClientContext, Contact) async throws -> Void) async throws {
        try await ClientContext.run(options) { context in
            try await body(context, try await ContactMatch.dependent(contact, context))
        }
    }
}
