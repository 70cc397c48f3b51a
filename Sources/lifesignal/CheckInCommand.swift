import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import LifeSignalRules

/// `lifesignal check-in`: "I'm OK". Without a connection it is queued and sent next time.
struct CheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-in",
        abstract: "Check in: tell your responders you're OK.",
        discussion: """
            When the server can't be reached the check-in is saved (exit 4) and sent by the next `check-in` or `status`. \
            With `--for`, a responder checks in on a dependent's behalf (recorded as such): the server allows it only \
            once they have missed a check-in or have an open alert, and tells them and their other responders. \
            With `--call-me` ("I'm OK, but please call me today") your responders are also asked, quietly and at most \
            once a day, to call you; no alert.
            """)

    @OptionGroup var options: ClientOptions

    @Option(name: .customLong("for"), help: "Check in on behalf of this dependent (their name or id).")
    var dependent: String?

    @Flag(name: .customLong("call-me"), help: "I'm OK, but please call me today: quietly ask your responders for a call.")
    var callMe = false

    func validate() throws {
        // A call is asked for by the person herself, never on someone's behalf.
        if callMe && dependent != nil { throw ValidationError("--call-me cannot be used with --for.") }
    }

    func run() async throws {
        try await ClientContext.run(options) { context in
            guard try context.tokens.load() != nil else { throw APIError.notSignedIn }
            if let dependent { return try await checkIn(for: dependent, context) }
            let send = callMe ? context.checkIns.callMe : context.checkIns.checkIn
            switch try await send(CheckInID(UUID()), Date()) {
            case let .recorded(result):
                if context.json { return try Terminal.printJSON(result) }
                Terminal.print(
                    Formatting.words("cli.checkedIn", ["when": Formatting.time(result.checkIn.at)]) + " "
                        + Formatting.statusLine(result.status))
                if let callRequest = result.callRequest { Terminal.print(callRequest.sentence(CLIWords.current)) }
            case let .queued(pending):
                if context.json {
                    try Terminal.printJSON(["queued": pending])
                } else {
                    Terminal.print(Formatting.words("cli.checkIn.saved"))
                }
                Terminal.error(Formatting.words("cli.unreachable", ["server": context.server.absoluteString]))
                throw ClientExit.unreachable
            }
        }
    }

    /// On someone's behalf nothing is queued: it only makes sense while the server can say
    /// whether they are overdue.
    private func checkIn(for name: String, _ context: ClientContext) async throws {
        let dependent = try await ContactMatch.dependent(name, context)
        let result = try await context.alerts.checkInOnBehalf(userID: dependent.userID, checkInID: CheckInID(UUID()))
        if context.json { return try Terminal.printJSON(result) }
        Terminal.print(
            Formatting.words("cli.checkedIn.behalf", ["name": dependent.fullName, "when": Formatting.time(result.checkIn.at)]) + " "
                + Formatting.statusLine(result.status))
    }
}
