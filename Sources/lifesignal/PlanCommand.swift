import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// `lifesignal plan`: "check on me by 18:00", beside the rhythm.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plans: \"check on me by 18:00\". Details stay sealed unless you are late.",
        subcommands: [List.self, Start.self, Extend.self, Back.self, Cancel.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your plans, running ones first.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let plans = try await context.plans.plans()
                if context.json { return try Terminal.printJSON(plans) }
                if plans.isEmpty { return Terminal.print(Formatting.words("cli.plan.none")) }
                for plan in plans { Terminal.print("  " + PlanCommand.line(plan)) }
            }
        }
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start a plan: who hears what, and when.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The headline your responders may see: \"Hiking the Rax trail\".")
        var title: String

        @Option(help: "When you expect to be back: 18:00 (the next one), 2026-12-01T18:00, or an ISO 8601 instant.")
        var by: String

        @Option(help: "Sealed details (route, car, companions), or @FILE to read them from a file.")
        var details: String?

        @Option(help: "What your responders should do if you are late: \"Call mountain rescue 140\".")
        var instruction: String?

        @Option(help: "From when the instruction applies (as --by); default: the time you are due back.")
        var instructionAt: String?

        @Flag(help: "Tell nobody unless you are late (default: your responders hear the headline now).")
        var quiet = false

        @Option(help: "A long plan: check in at least this often until it ends (12h to 72h: 24h, 48h).")
        var checkInEvery: String?

        func run() async throws {
            let now = Date()
            guard let due = PlanRule.time(by, after: now, zone: .current) else {
                throw ValidationError(Formatting.words("cli.plan.badTime", ["text": by]))
            }
            let instructionDue = try instructionAt.map { text in
                guard let at = PlanRule.time(text, after: now, zone: .current) else {
                    throw ValidationError(Formatting.words("cli.plan.badTime", ["text": text]))
                }
                return at
            }
            let every = try checkInEvery.map { text in
                guard let minutes = PlanRule.minutes(text), minutes % 60 == 0 else {
                    throw ValidationError(Formatting.words("cli.plan.badDuration", ["text": text]))
                }
                return minutes / 60
            }
            let sealed = try details.map { text in
                text.hasPrefix("@") ? try String(contentsOfFile: String(text.dropFirst()), encoding: .utf8) : text
            }
            try await ClientContext.run(options) { context in
                let plan = try await context.plans.start(
                    PlanDraft(
                        title: title, dueAt: due, details: sealed ?? "", instruction: instruction ?? "",
                        instructionAt: instructionDue, tellResponders: !quiet, checkInEveryHours: every))
                if context.json { return try Terminal.printJSON(plan) }
                Terminal.print(Formatting.words("cli.plan.started", ["title": plan.title, "when": Formatting.time(plan.dueAt)]))
            }
        }
    }

    struct Extend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "More time for a plan (from its due time, or from now if late).")

        @OptionGroup var options: ClientOptions

        @Argument(help: "How much more: 1h, 30m, 90 (minutes).")
        var more: String = "1h"

        @Option(help: "Which plan (its id or headline); default: the one due first.")
        var plan: String?

        func run() async throws {
            guard let minutes = PlanRule.minutes(more) else {
                throw ValidationError(Formatting.words("cli.plan.badDuration", ["text": more]))
            }
            try await ClientContext.run(options) { context in
                let found = try await PlanCommand.find(plan, context: context)
                let extended = try await context.plans.extend(found.id, minutes)
                if context.json { return try Terminal.printJSON(extended) }
                Terminal.print(Formatting.words("cli.plan.extended", ["title": extended.title, "when": Formatting.time(extended.dueAt)]))
            }
        }
    }

    struct Back: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "I'm back: ends the plan and checks you in.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "Which plan (its id or headline); default: the late one, else the one due first.")
        var plan: String?

        func run() async throws {
            try await ClientContext.run(options) { context in
                let found = try await PlanCommand.find(plan, context: context)
                let ended = try await context.plans.done(found.id)
                if context.json { return try Terminal.printJSON(ended) }
                Terminal.print(Formatting.words("cli.plan.back", ["title": ended.title]))
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Call a plan off; its details are erased at once.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "Which plan (its id or headline).")
        var plan: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let found = try await PlanCommand.find(plan, context: context)
                try await context.plans.cancel(found.id)
                if context.json { return try Terminal.printJSON(["cancelled": found.id]) }
                Terminal.print(Formatting.words("cli.plan.cancelled", ["title": found.title]))
            }
        }
    }

    /// A running plan by id or headline; with none named, the late one, else the one due first.
    static func find(_ text: String?, context: ClientContext) async throws -> Plan {
        let running = try await context.plans.plans().filter(\.isRunning)
        guard let text else {
            guard let first = running.first(where: { $0.state == .overdue }) ?? running.first else {
                throw ValidationError(Formatting.words("cli.plan.none"))
            }
            return first
        }
        let matches =
            PlanID(string: text).map { id in running.filter { $0.id == id } }.flatMap { $0.isEmpty ? nil : $0 }
            ?? running.filter { $0.title.lowercased() == text.lowercased() }
        guard matches.count == 1, let found = matches.first else {
            throw ValidationError(
                Formatting.words(matches.isEmpty ? "cli.sessions.noMatch" : "cli.sessions.severalMatch", ["text": text]))
        }
        return found
    }

    /// "Hiking the Rax trail · back by today at 18:00 · running  [id]"
    static func line(_ plan: Plan) -> String {
        let w = Formatting.words
        let state = w("cli.plan.state.\(plan.state.rawValue)")
        let checkIn = plan.isRunning ? plan.checkInBy.map { " · " + w("cli.plan.checkInBy", ["when": Formatting.time($0)]) } ?? "" : ""
        return "\(plan.title) · \(w("cli.plan.due", ["when": Formatting.time(plan.dueAt)]))\(checkIn) · \(state)  [\(plan.id)]"
    }
}
