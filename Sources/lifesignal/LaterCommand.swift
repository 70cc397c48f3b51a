import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalModels
import LifeSignalRules

/// `lifesignal later 2h`: "I'm OK, give me 2 more hours" for the next deadline, once.
struct LaterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "later",
        abstract: "Give me more time: move your next deadline later, once, before it comes (nobody is told).",
        discussion: "For a plan, use `lifesignal plan extend` instead. Texting LATER 2H does the same.")

    @OptionGroup var options: ClientOptions

    @Argument(help: "How much more: 2h, 90m, 30 (minutes); at most one period of your rhythm.")
    var more: String = "2h"

    func run() async throws {
        guard let minutes = PlanRule.minutes(more) else {
            throw ValidationError(Formatting.words("cli.plan.badDuration", ["text": more]))
        }
        try await ClientContext.run(options) { context in
            let status = try await context.checkIns.addTime(minutes)
            if context.json { return try Terminal.printJSON(status) }
            Terminal.print(Formatting.words("web.flash.timeAdded", ["when": Formatting.time(status.deadline)]))
        }
    }
}
