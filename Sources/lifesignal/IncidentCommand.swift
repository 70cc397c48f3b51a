import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import LifeSignalRules

/// `lifesignal incident show|ack|resolve`: what a responder does about an alert.
struct IncidentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "incident", abstract: "See and act on an alert: who is in trouble, who was told, \"I'm on it\", resolve.",
        discussion: """
            An incident is named by its id (shown by `lifesignal incident show` and in notifications) \
            or by the name of the dependent whose alert it is; with no name, `show` shows your own open alert.
            """,
        subcommands: [Show.self, Acknowledge.self, Resolve.self, Details.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Who is in trouble and since when, who was told, and how each delivery went.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The incident's id, or a dependent's name (default: your own open alert).")
        var incident: String?

        func run() async throws {
            try await ClientContext.run(options) { context in
                let id = try await IncidentLookup.id(incident, context: context)
                let report = try await context.alerts.incidentReport(id: id)
                if context.json { return try Terminal.printJSON(report) }
                for line in IncidentLookup.lines(report) { Terminal.print(line) }
                // Her location, for her responder while the alert is open (refused to anyone
                // else, and after the all-clear: then nothing is printed).
                if report.incident.resolvedAt == nil, let location = try? await context.location.forIncident(id) {
                    let name = report.user.firstName.isEmpty ? report.user.lastName : report.user.firstName
                    for line in IncidentLookup.locationLines(location, name: name) { Terminal.print(line) }
                }
            }
        }
    }

    struct Acknowledge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ack", abstract: "\"I'm on it\": the other responders are told you are handling it.")

        @OptionGroup var target: NamedIncident

        func run() async throws {
            try await target.run { context, id in
                let acknowledged = try await context.alerts.acknowledge(id: id)
                if context.json { return try Terminal.printJSON(acknowledged) }
                let until = acknowledged.claimExpiresAt.map {
                    " " + Formatting.words("cli.incident.claimUntil", ["when": Formatting.time($0)])
                }
                Terminal.print(Formatting.words("cli.incident.onIt") + (until ?? "") + " [incident \(acknowledged.id)]")
            }
        }
    }

    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close the incident: you found them safe.",
            discussion: "An emergency alert (SOS) may be resolved by a responder only after saying \"I'm on it\" (`incident ack`).")

        @OptionGroup var target: NamedIncident

        func run() async throws {
            try await target.run { context, id in
                let resolved = try await context.alerts.resolve(id: id)
                if context.json { return try Terminal.printJSON(resolved) }
                Terminal.print(Formatting.words("cli.incident.resolved") + " [incident \(resolved.id)]")
            }
        }
    }
}

extension IncidentCommand {
    struct Details: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open the person's sealed details (door code, key, medication) during their alert.",
            discussion: "Only while the alert is open. Opening them is recorded on their timeline, and they are told who read them.")

        @OptionGroup var target: NamedIncident

        func run() async throws {
            try await target.run { context, id in
                let opened = try await context.alerts.openSealedDetails(id: id)
                if context.json { return try Terminal.printJSON(opened) }
                Terminal.print(opened.details.isEmpty ? Formatting.words("cli.incident.noSealedDetails") : opened.details)
            }
        }
    }
}

/// The incident `ack`, `resolve` and `details` act on, named by id or by whose it is, with
/// the client's options.
struct NamedIncident: ParsableArguments {
    @OptionGroup var options: ClientOptions

    @Argument(help: "The incident's id, or the dependent's name.")
    var incident: String

    /// Runs `body` with the client and the incident's id, once found.
    func run(_ body: (ClientContext, IncidentID) async throws -> Void) async throws {
        try await ClientContext.run(options) { context in
            try await body(context, try await IncidentLookup.id(incident, context: context))
        }
    }
}

/// Finding an incident by id or by whose it is, and the report in words.
enum IncidentLookup {
    static func id(_ text: String?, context: ClientContext) async throws -> IncidentID {
        guard let text else {
            guard let open = try await context.checkIns.status().openIncident else {
                throw CommandFailure("You have no open alert. Name a dependent's: `lifesignal incident show <name>`.")
            }
            return open.id
        }
        if let id = IncidentID(string: text) { return id }
        let dependent = try await ContactMatch.dependent(text, context)
        guard let open = dependent.status?.openIncident else {
            throw CommandFailure("\(dependent.fullName) has no open alert.")
        }
        return open.id
    }

    static func kind(_ kind: Incident.Kind) -> String {
        switch kind {
        case .manualAlert: "emergency alert (SOS)"
        case .missedCheckIn: "missed check-in"
        case .planOverdue: "late back from a plan"
        }
    }

    static func lines(_ report: IncidentReport) -> [String] {
        let incident = report.incident
        let name = [report.user.firstName, report.user.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        var lines: [String] = []
        let since =
            incident.kind != .manualAlert
            ? "due \(Formatting.time(incident.dueAt)), alert since \(Formatting.time(incident.openedAt))"
            : "since \(Formatting.time(incident.openedAt))"
        lines.append("\(name): \(kind(incident.kind)), \(since)\(incident.late ? " (opened late)" : "")  [incident \(incident.id)]")
        if let note = report.user.emergencyNote, !note.isEmpty { lines.append("Note: \(note)") }
        if let resolvedAt = incident.resolvedAt {
            lines.append("Resolved at \(Formatting.time(resolvedAt))\(incident.resolution.map { " (\(resolution($0)))" } ?? "").")
        } else if let by = report.acknowledgedByName {
            let at = incident.acknowledgedAt.map { " since \(Formatting.time($0))" } ?? ""
            lines.append("\(by) is on it\(at).")
        } else {
            lines.append("Open: nobody has said \"I'm on it\" yet.")
        }
        lines.append("Told:")
        if report.recipients.isEmpty { lines.append("  nobody yet") }
        for recipient in report.recipients {
            lines.append("  \(recipient.name)")
            if recipient.deliveries.isEmpty { lines.append("    no delivery yet") }
            for delivery in recipient.deliveries { lines.append("    \(DeliveryWording.line(delivery))") }
        }
        return lines
    }

    /// "Last location: 09:14, 2 h 10 min ago, within 35 m, from Ada's SOS", its warnings and
    /// links, or that it could not be read; nothing when she does not share it.
    static func locationLines(_ location: LocationView, name: String, now: Date = Date()) -> [String] {
        let words = Formatting.words
        guard location.sharing else { return [] }
        var lines: [String] = []
        if let fix = location.fix {
            lines.append(LocationRule.sentence(fix, name: name, now: now, zone: .current, words: words))
            lines += LocationRule.warnings(fix, name: name, now: now, words: words).map { "  " + $0 }
            lines.append("  " + words("cli.location.map", ["url": LocationRule.mapLink(fix)]))
            lines.append("  " + LocationRule.geoLink(fix))
        }
        if let failure = location.couldNotRead {
            lines.append(LocationRule.couldNotRead(failure, name: name, zone: .current, words: words))
        }
        if lines.isEmpty { lines.append(words("cli.location.none", ["name": name])) }
        return lines
    }

    static func resolution(_ resolution: Incident.Resolution) -> String {
        switch resolution {
        case .checkedIn: "they checked in"
        case .checkedInByResponder: "a responder checked in for them"
        case .cleared: "they cleared it"
        case .resolvedByResponder: "a responder resolved it"
        }
    }
}

/// One delivery's outcome, as the incident report and the drill show it: never an address.
enum DeliveryWording {
    static func line(_ delivery: DeliveryProof) -> String {
        var line = "\(delivery.channel.rawValue): \(delivery.status.rawValue) at \(Formatting.time(delivery.updatedAt))"
        if delivery.attempts > 1 { line += " after \(delivery.attempts) attempts" }
        if let reason = delivery.reason, !reason.isEmpty { line += " (\(reason))" }
        return line
    }
}

/// A refusal the CLI itself finds (nothing to act on): exit 1 with its message, like a
/// refusal from the server.
struct CommandFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
