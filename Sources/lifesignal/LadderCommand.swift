import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal ladder show|set|key`: who is told first when you miss a check-in, who next, and
/// who holds your key.
struct LadderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ladder", abstract: "Who is told first if you miss a check-in, who next and after how long.",
        subcommands: [Show.self, Set.self, Key.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your ladder with real times for your next deadline.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let ladders = context.ladders
                let preview = try await ladders.preview()
                if context.json { return try Terminal.printJSON(preview) }
                Terminal.print(preview.sentence)
                for (index, step) in preview.steps.enumerated() {
                    let names = step.members.map { member in
                        member.keyHolder ? Formatting.words("cli.ladder.holdsKey", ["name": member.name]) : member.name
                    }
                    Terminal.print(
                        Formatting.words(
                            "cli.ladder.step",
                            [
                                "number": String(index + 1), "time": Formatting.time(step.at),
                                "names": names.isEmpty ? Formatting.words("cli.ladder.nobody") : Formatting.words.list(names),
                            ]))
                }
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace your ladder: one argument per step.",
            discussion: """
                Each step names responders, comma-separated; every step after the first starts with its wait in \
                minutes and a colon. `everyone` on the last step is everyone not named before. \
                Example: lifesignal ladder set Cleo "15:Bob" "15:everyone"
                """)

        @OptionGroup var options: ClientOptions

        @Argument(help: "The steps, first to last.")
        var steps: [String]

        @Flag(
            inversion: .prefixedNo,
            help: """
                Whether an SOS climbs the ladder like a missed check-in instead of telling every step at once; \
                kept as it is when not given.
                """
        )
        var sosClimbs: Bool?

        func run() async throws {
            try await ClientContext.run(options) { context in
                let ladders = context.ladders
                let responders = try await context.contacts.list(sort: .name).responders
                let current = try await ladders.ladder()
                let parsed = try steps.enumerated().map { index, text in
                    try LadderSteps.parse(text, first: index == 0, responders: responders)
                }
                let saved = try await ladders.save(LadderChange(steps: parsed, sosClimbs: sosClimbs, version: current.version))
                if context.json { return try Terminal.printJSON(saved) }
                Terminal.print(Formatting.words("cli.ladder.saved", count: saved.steps.count))
                Terminal.print(try await ladders.preview().sentence)
            }
        }
    }

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark one of your responders as holding your key: named first in every alert to the others.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The responder's name or id.")
        var responder: String

        @Flag(help: "They no longer hold a key.")
        var off = false

        func run() async throws {
            try await ClientContext.run(options) { context in
                let contact = try ContactMatch.find(responder, in: try await context.contacts.list(sort: .name).responders)
                let changed = try await context.ladders.setKeyHolder(contact.userID, !off)
                if context.json { return try Terminal.printJSON(changed) }
                Terminal.print(
                    Formatting.words(changed.keyHolder == true ? "cli.ladder.keyOn" : "cli.ladder.keyOff", ["name": changed.fullName]))
            }
        }
    }
}

/// One step of `ladder set`: "Cleo", "15:Bob,Dan", "30:everyone".
enum LadderSteps {
    static func parse(_ text: String, first: Bool, responders: [Contact]) throws -> Ladder.Step {
        var rest = Substring(text)
        var wait = 0
        if let colon = rest.firstIndex(of: ":"), let minutes = Int(rest[..<colon].trimmingCharacters(in: .whitespaces)) {
            wait = minutes
            rest = rest[rest.index(after: colon)...]
        } else if !first {
            throw ValidationError(Formatting.words("cli.ladder.stepNeedsWait"))
        }
        let names = rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names.map({ $0.lowercased() }) == ["everyone"] { return Ladder.Step(responders: [], waitMinutes: wait) }
        return Ladder.Step(responders: try names.map { try ContactMatch.find($0, in: responders).userID }, waitMinutes: wait)
    }
}
