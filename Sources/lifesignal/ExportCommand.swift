import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal export [--csv] [--output file]`: everything LifeSignal keeps about you, as the
/// server wrote it.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Download your data: profile, contacts, check-ins, alerts and timeline.",
        discussion: """
            Writes the server's JSON document (or, with `--csv`, your check-ins as CSV) to standard output, or to FILE \
            with `--output`. The server allows a few exports an hour.
            """)

    @OptionGroup var options: ClientOptions

    @Flag(help: "Only your check-ins, as CSV (id,at,source,recorded_by,client_at,device).")
    var csv = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    /// What `--json` prints once the file is written.
    struct Summary: Encodable {
        var file: String
        var bytes: Int
    }

    func run() async throws {
        try await ClientContext.run(options) { context in
            let data = csv ? try await context.users.exportCheckIns() : try await context.users.exportData()
            guard let output else {
                // The document itself is the result: piped as it came, whatever `--json` says.
                FileHandle.standardOutput.write(data)
                return
            }
            let url = URL(fileURLWithPath: output)
            do {
                try data.write(to: url, options: .atomic)
            } catch {
                throw CommandFailure("Could not write \(output): \(error.localizedDescription)")
            }
            if context.json { return try Terminal.printJSON(Summary(file: url.path, bytes: data.count)) }
            Terminal.print(Formatting.words(csv ? "cli.export.savedCheckIns" : "cli.export.saved", ["file": url.path]))
        }
    }
}
