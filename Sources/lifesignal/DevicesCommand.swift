import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalModels

/// `lifesignal devices`: check-in links for buttons, sensors and shortcuts.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Check-in links for a button, a sensor or a shortcut: each can only check you in.",
        subcommands: [List.self, Add.self, Revoke.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your check-in links (never their addresses).")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let links = try await context.deviceLinks.links()
                if context.json { return try Terminal.printJSON(links) }
                if links.isEmpty { return Terminal.print(Formatting.words("cli.devices.none")) }
                let w = Formatting.words
                for link in links {
                    let during = w(link.resolvesAlerts ? "cli.devices.endsAlerts" : "cli.devices.activityOnly")
                    let used = w("cli.sessions.lastUsed", ["when": link.lastUsedAt.map(Formatting.time) ?? w("cli.devices.never")])
                    Terminal.print("  \(link.name) · \(used) · \(during)  [\(link.id)]")
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a check-in link; its address is printed this once (POST to it checks you in).")

        @OptionGroup var options: ClientOptions

        @Argument(help: "A name you will recognise: \"Front door button\".")
        var name: String

        @Flag(help: "Let this link end an alert about a missed check-in (leave it off for sensors).")
        var endsAlerts = false

        func run() async throws {
            try await ClientContext.run(options) { context in
                let made = try await context.deviceLinks.create(name, endsAlerts)
                if context.json { return try Terminal.printJSON(made) }
                Terminal.print(Formatting.words("cli.devices.made", ["name": made.link.name]))
                Terminal.print("  \(made.url)")
                Terminal.print(Formatting.words("cli.devices.howTo", ["command": "curl -fsS -X POST \(made.url)"]))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop a check-in link working, at once.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The link's id or name.")
        var link: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let links = try await context.deviceLinks.links()
                let matches =
                    DeviceLinkID(string: link).flatMap { id in links.filter { $0.id == id } }.flatMap { $0.isEmpty ? nil : $0 }
                    ?? links.filter { $0.name.lowercased() == link.lowercased() }
                guard matches.count == 1, let found = matches.first else {
                    throw ValidationError(
                        Formatting.words(matches.isEmpty ? "cli.sessions.noMatch" : "cli.sessions.severalMatch", ["text": link]))
                }
                try await context.deviceLinks.revoke(found.id)
                if context.json { return try Terminal.printJSON(["revoked": found.id]) }
                Terminal.print(Formatting.words("cli.devices.revoked", ["name": found.name]))
            }
        }
    }
}
