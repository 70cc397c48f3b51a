import ArgumentParser
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalCore
import LifeSignalModels

/// `lifesignal timeline [--export file] [--verify]`: the append-only record, its export and
/// its hash-chain check.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline", abstract: "Your timeline: every check-in, reminder, alert and delivery, hash-chained.",
        discussion: """
            Read in pages (`--page-size`) until the end. `--export FILE` writes every entry to FILE as a JSON array \
            instead of printing them. `--verify` asks the server to check the hash chain and prints valid or invalid \
            with the reason; an invalid chain exits 1.
            """)

    @OptionGroup var options: ClientOptions

    @Option(help: ArgumentHelp("Write every entry to this file (JSON) instead of printing them.", valueName: "file"))
    var export: String?

    @Flag(help: "Check the chain on the server: valid, or where and why it breaks.")
    var verify = false

    @Option(help: "Entries per request (1–10000).")
    var pageSize = 1000

    /// What `--json` prints when exporting or verifying.
    struct Summary: Encodable {
        var exported: Int?
        var file: String?
        var verification: TimelineVerification?
    }

    func validate() throws {
        guard (1...10_000).contains(pageSize) else { throw ValidationError("--page-size must be between 1 and 10000") }
    }

    func run() async throws {
        try await ClientContext.run(options) { context in
            var summary = Summary()
            let listing = export != nil || !verify
            var entries: [TimelineEntry] = []
            if listing {
                entries = try await Self.all(context.settings, pageSize: pageSize)
            }
            if let export {
                let encoder = APICoding.encoder
                encoder.outputFormatting.formUnion([.prettyPrinted, .sortedKeys])
                let url = URL(fileURLWithPath: export)
                do {
                    try encoder.encode(entries).write(to: url, options: .atomic)
                } catch {
                    throw CommandFailure("Could not write \(export): \(error.localizedDescription)")
                }
                summary.exported = entries.count
                summary.file = url.path
                if !context.json {
                    Terminal.print(Formatting.words("cli.timeline.exported", ["file": url.path], count: entries.count))
                }
            } else if listing, !context.json {
                if entries.isEmpty { Terminal.print(Formatting.words("cli.timeline.empty")) }
                // Each entry said in this computer's language (the stored English summary is
                // the record; an entry without words here is shown as it). Names are the
                // contacts' names as they are now.
                let names =
                    Formatting.words.language.primary == "en" || entries.isEmpty
                    ? [:] : Self.names(try await context.contacts.list(sort: .name))
                for entry in entries {
                    let sentence = LifeSignalCore.Timeline.sentence(
                        for: entry, words: Formatting.words, zone: .current, names: names)
                    Terminal.print("\(String(format: "%5d", entry.sequence))  \(Formatting.time(entry.at))  \(sentence)")
                }
            }
            if verify {
                let verification = try await context.settings.verifyTimeline()
                summary.verification = verification
                if !context.json { Terminal.print(Self.words(verification)) }
            }
            if context.json {
                if export == nil, !verify { try Terminal.printJSON(entries) } else { try Terminal.printJSON(summary) }
            }
            if let verification = summary.verification, !verification.valid { throw ClientExit.apiError }
        }
    }

    /// Each contact's name by id.
    static func names(_ lists: ContactLists) -> [UserID: String] {
        Dictionary(
            (lists.responders + lists.dependents).filter { !$0.fullName.isEmpty }.map { ($0.userID, $0.fullName) }
        ) { first, _ in first }
    }

    /// Every entry, a page at a time, until an empty (or short) page.
    static func all(_ settings: SettingsClient, pageSize: Int) async throws -> [TimelineEntry] {
        var entries: [TimelineEntry] = []
        while true {
            let page = try await settings.timelinePage(after: entries.last?.sequence ?? 0, limit: pageSize)
            entries += page
            if page.isEmpty { return entries }
        }
    }

    static func words(_ verification: TimelineVerification) -> String {
        let w = Formatting.words
        if verification.valid {
            return w("cli.timeline.valid", ["head": verification.headHash], count: verification.entries)
        }
        // The reason is the server's sentence, as it gave it.
        let reason = verification.reason ?? w("cli.timeline.chainBroken")
        return verification.firstBadSequence.map { w("cli.timeline.invalidAt", ["entry": String($0), "reason": reason]) }
            ?? w("cli.timeline.invalid", ["reason": reason])
    }
}

/// `lifesignal preview`: what would happen if you missed your next deadline.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview", abstract: "If you miss your next deadline: each reminder, and who is told, when and how.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await ClientContext.run(options) { context in
            let steps = try await context.settings.preview()
            if context.json { return try Terminal.printJSON(steps) }
            // The steps are said by the server, in the account's language; the frame here.
            if steps.isEmpty { return Terminal.print(Formatting.words("cli.preview.none")) }
            Terminal.print(Formatting.words("cli.preview.heading"))
            for step in steps {
                Terminal.print("  \(Formatting.time(step.at))  \(step.summary)")
                for responder in step.responders {
                    let channels = responder.channels.map(\.rawValue).joined(separator: ", ")
                    Terminal.print("      \(responder.name): \(channels.isEmpty ? Formatting.words("cli.preview.appOnly") : channels)")
                }
            }
        }
    }
}

/// `lifesignal drill`: a test notification to every responder, then how each delivery went.
struct DrillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drill", abstract: "Test how your responders would be alerted, and show each delivery's outcome.",
        subcommands: [Run.self, Show.self], defaultSubcommand: Run.self)

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a drill, then wait for the outcomes.",
            discussion: "Asks again every second until no delivery is still queued, or `--wait` seconds have passed.")

        @OptionGroup var options: ClientOptions

        @Option(help: "Seconds to wait for the outcomes (0: show what was queued and return).")
        var wait = 15

        func run() async throws {
            try await ClientContext.run(options) { context in
                var report = try await context.settings.runDrill()
                let started = ContinuousClock.now
                while wait > 0, DrillWording.pending(report), ContinuousClock.now - started < .seconds(wait) {
                    try await Task.sleep(for: .seconds(1))
                    report = try await context.settings.drill(id: report.id)
                }
                if context.json { return try Terminal.printJSON(report) }
                for line in DrillWording.lines(report) { Terminal.print(line) }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an earlier drill's outcomes.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The drill's id.")
        var id: String

        func run() async throws {
            guard let drillID = DrillID(string: id) else { throw ValidationError("The drill id must be a UUID, got \(id)") }
            try await ClientContext.run(options) { context in
                let report = try await context.settings.drill(id: drillID)
                if context.json { return try Terminal.printJSON(report) }
                for line in DrillWording.lines(report) { Terminal.print(line) }
            }
        }
    }
}

enum DrillWording {
    static func pending(_ report: DrillReport) -> Bool {
        report.recipients.contains { $0.deliveries.isEmpty || $0.deliveries.contains { $0.status == .queued } }
    }

    static func lines(_ report: DrillReport) -> [String] {
        var lines = ["Drill of \(Formatting.time(report.createdAt)) [drill \(report.id)]:"]
        for recipient in report.recipients {
            // Her own row is the test of her daily call.
            switch recipient.checkedIn {
            case nil: lines.append("  \(recipient.name)")
            case false?: lines.append("  " + Formatting.words("web.drill.dailyCall"))
            case true?:
                lines.append("  " + Formatting.words("web.drill.dailyCall") + " — " + Formatting.words("web.drill.dailyCall.checkedIn"))
            }
            if recipient.deliveries.isEmpty { lines.append("    no delivery yet") }
            for delivery in recipient.deliveries { lines.append("    \(DeliveryWording.line(delivery))") }
        }
        if pending(report) { lines.append("Some deliveries are still under way: `lifesignal drill show \(report.id)` shows them later.") }
        return lines
    }
}
