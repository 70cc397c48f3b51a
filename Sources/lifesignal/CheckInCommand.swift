import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalModels

/// `lifesignal check-in`: "I'm OK". Without a connection it is queued and sent next time.
struct CheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-in",
        abstract: "Check in: tell your responders you're OK.",
        discussion: "When the server can't be reached the check-in is saved (exit 4) and sent by the next `check-in` or `status`.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await ClientContext.run(options) { context in
            guard try context.tokens.load() != nil else { throw APIError.notSignedIn }
            switch try await context.checkIns.checkIn(id: CheckInID(UUID()), clientAt: Date()) {
            case let .recorded(result):
                if context.json { return try Terminal.printJSON(result) }
                Terminal.print("Checked in at \(Formatting.time(result.checkIn.at)). \(Formatting.statusLine(result.status))")
            case let .queued(pending):
                if context.json { try Terminal.printJSON(["queued": pending]) } else {
                    Terminal.print("Saved: the check-in will be sent when the server can be reached again.")
                }
                Terminal.error("Can't reach the LifeSignal server at \(context.server.absoluteString).")
                throw ClientExit.unreachable
            }
        }
    }
}
