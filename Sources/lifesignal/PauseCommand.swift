import ArgumentParser
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// `lifesignal pause until <date>|off|list|add|remove`: no reminders and no alerts until a
/// date, from now or planned ahead (days off).
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Pause reminders and alerts until a date, plan days off, or end a pause.",
        subcommands: [Until.self, Off.self, List.self, Add.self, Remove.self])

    struct Until: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pause until a date (YYYY-MM-DD: the start of that day here) or an ISO date-time.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "2026-12-24, or 2026-12-24T18:00:00Z.")
        var date: String

        @OptionGroup var openIncident: OpenIncidentOption

        func run() async throws {
            guard let until = DateArgument.parse(date) else {
                throw ValidationError(Formatting.words("cli.pause.badDate", ["date": date]))
            }
            let choice = try openIncident.choice()
            try await ClientContext.run(options) { context in
                let status = try await context.users.setPause(until, choice)
                if context.json { return try Terminal.printJSON(status) }
                Terminal.print(
                    Formatting.words(
                        "cli.pause.until",
                        ["when": Formatting.time(status.pausedUntil ?? until), "status": Formatting.statusLine(status)]))
            }
        }
    }

    struct Off: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the pause now; a new period starts.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let status = try await context.users.setPause(nil, nil)
                if context.json { return try Terminal.printJSON(status) }
                Terminal.print(Formatting.words("cli.pause.ended", ["status": Formatting.statusLine(status)]))
            }
        }
    }
}

extension PauseCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your pauses that have not ended, earliest first.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let pauses = try await context.pauses.pauses()
                if context.json { return try Terminal.printJSON(pauses) }
                if pauses.isEmpty { return Terminal.print(Formatting.words("cli.pause.none")) }
                for pause in pauses { Terminal.print("  " + PauseCommand.line(pause)) }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plan days off: from a date until a date (YYYY-MM-DD: the start of that day here), at most 30 days.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The first day away: 2026-12-24, or 2026-12-24T18:00:00Z.")
        var from: String

        @Argument(help: "The day you are back: 2026-12-27, or 2026-12-27T09:00:00Z.")
        var until: String

        @OptionGroup var openIncident: OpenIncidentOption

        func run() async throws {
            guard let start = DateArgument.parse(from) else {
                throw ValidationError(Formatting.words("cli.pause.badDate", ["date": from]))
            }
            guard let end = DateArgument.parse(until) else {
                throw ValidationError(Formatting.words("cli.pause.badDate", ["date": until]))
            }
            let choice = try openIncident.choice()
            try await ClientContext.run(options) { context in
                let pause = try await context.pauses.add(start, end, choice)
                if context.json { return try Terminal.printJSON(pause) }
                Terminal.print(
                    Formatting.words("cli.pause.planned", ["from": Formatting.time(pause.from), "until": Formatting.time(pause.until)]))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End a pause now, or call off one planned ahead (its id, or the first characters of it).")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The pause's id as `pause list --json` shows it, or its first characters.")
        var pause: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let matches = try await context.pauses.pauses().filter { $0.id.description.hasPrefix(pause.lowercased()) }
                guard matches.count == 1, let found = matches.first else {
                    throw ValidationError(
                        Formatting.words(matches.isEmpty ? "cli.sessions.noMatch" : "cli.sessions.severalMatch", ["text": pause]))
                }
                let status = try await context.pauses.remove(found.id)
                if context.json { return try Terminal.printJSON(status) }
                Terminal.print(Formatting.words("cli.pause.removed", ["status": Formatting.statusLine(status)]))
            }
        }
    }

    /// "2026-12-24 00:00 – 2026-12-27 00:00 (set by Ada)  1b2c3d4e".
    static func line(_ pause: Pause) -> String {
        Formatting.words(
            "cli.pause.line",
            [
                "from": Formatting.time(pause.from), "until": Formatting.time(pause.until), "name": pause.setByName,
                "id": String(pause.id.description.prefix(8)),
            ])
    }
}

/// What becomes of an alert about a missed check-in when a pause starts while it is open; the
/// server asks (409) when it is open and this is not given.
struct OpenIncidentOption: ParsableArguments {
    @Option(help: "While an alert about a missed check-in is open: resolve (I'm fine) or keep-open.")
    var openIncident: String?

    func choice() throws -> OpenIncidentChoice? {
        guard let openIncident else { return nil }
        guard let choice = OpenIncidentChoice(rawValue: openIncident.replacing("-", with: "_")) else {
            throw ValidationError(Formatting.words("cli.pause.badChoice", ["text": openIncident]))
        }
        return choice
    }
}
