import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal status`: where you stand. In a terminal the countdown is redrawn every
/// second until Ctrl-C; piped, it prints once.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show your status and the time left to check in.")

    @OptionGroup var options: ClientOptions

    @Flag(help: "Print once and exit, even in a terminal.")
    var once = false

    func run() async throws {
        try await ClientContext.run(options) { context in
            let checkIns = context.checkIns
            // Check-ins queued while offline go first, so the status shown includes them.
            if !(await checkIns.pending().isEmpty), let sent = try? await checkIns.flushPending(), !sent.isEmpty {
                Terminal.error(Formatting.words("cli.sentOffline", count: sent.count))
            }
            var status = try await checkIns.status()
            if context.json { return try Terminal.printJSON(status) }
            guard Terminal.stdoutIsTTY, !once else { return Terminal.print(Formatting.statusLine(status)) }

            var fetchedAt = Date()
            var askedAt = fetchedAt
            while !Task.isCancelled {
                // Redrawn in place: carriage return, then clear to the end of the line.
                let elapsed = Int(Date().timeIntervalSince(fetchedAt))
                FileHandle.standardOutput.write(Data("\r\u{1B}[K\(Formatting.statusLine(status, elapsed: elapsed, live: true))".utf8))
                try await Task.sleep(for: .seconds(1))
                if Date().timeIntervalSince(askedAt) >= 30 {
                    // Someone may have checked in for them, or an alert opened: ask again.
                    askedAt = Date()
                    if let fresh = try? await checkIns.status() {
                        status = fresh
                        fetchedAt = askedAt
                    }
                }
            }
        }
    }
}
