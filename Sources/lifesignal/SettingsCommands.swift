import ArgumentParser
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// `lifesignal time-zone [zone]`: the zone every time in your messages and pages is written in.
struct TimeZoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "time-zone",
        abstract: "Show or set the time zone your messages and pages are written in (--here: this computer's).")

    @OptionGroup var options: ClientOptions

    @Argument(help: "An IANA time zone, like Europe/Paris (omit to show the current one).")
    var zone: String?

    @Flag(help: "Use this computer's time zone.")
    var here = false

    func validate() throws {
        if here, zone != nil { throw ValidationError(Formatting.words("cli.timeZone.notBoth")) }
        if let zone, TimeZone(identifier: zone) == nil {
            throw ValidationError(Formatting.words("cli.timeZone.unknown", ["zone": zone]))
        }
    }

    func run() async throws {
        let wanted = here ? TimeZone.current.identifier : zone
        try await ClientContext.run(options) { context in
            let user =
                if let wanted { try await context.users.updateProfile(changes: ProfileChanges(timeZone: wanted)) } else {
                    try await context.users.profile()
                }
            if context.json { return try Terminal.printJSON(["timeZone": user.timeZone]) }
            Terminal.print(Formatting.words("cli.timeZone.is", ["zone": user.timeZone]))
        }
    }
}

/// `lifesignal quiet-hours [22:00-07:00|off]`: the hours her own early reminders wait out
/// (never the last call, never an alert).
struct QuietHoursCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiet-hours",
        abstract: "Show or set the quiet hours your own early reminders wait out (never the last call or an alert).")

    @OptionGroup var options: ClientOptions

    @Argument(help: "22:00-07:00 (on your clock), or off; omit to show them.")
    var hours: String?

    /// The change asked for: nil to show, `.off`, or the hours.
    enum Wanted: Equatable { case off, hours(QuietHours) }

    static func wanted(_ text: String) -> Wanted? {
        if text.lowercased() == "off" { return .off }
        let parts = text.split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let from = QuietHours.minute(parts[0]), let to = QuietHours.minute(parts[1]), from != to else {
            return nil
        }
        return .hours(QuietHours(fromMinute: from, toMinute: to))
    }

    func validate() throws {
        if let hours, Self.wanted(hours) == nil { throw ValidationError(Formatting.words("cli.quietHours.bad", ["text": hours])) }
    }

    func run() async throws {
        let wanted = hours.flatMap(Self.wanted)
        try await ClientContext.run(options) { context in
            let user =
                switch wanted {
                case .off: try await context.users.updateProfile(changes: ProfileChanges(clearsQuietHours: true))
                case let .hours(quiet): try await context.users.updateProfile(changes: ProfileChanges(quietHours: quiet))
                case nil: try await context.users.profile()
                }
            if context.json { return try Terminal.printJSON(["quietHours": user.quietHours]) }
            Terminal.print(
                user.quietHours.map { Formatting.words("cli.quietHours.on", ["from": $0.from, "to": $0.to]) }
                    ?? Formatting.words("cli.quietHours.off"))
        }
    }
}

/// `lifesignal language [tag]`: the language LifeSignal writes and speaks to you in (`--here`:
/// this computer's, from `LC_ALL`, `LC_MESSAGES` or `LANG`). Said in this computer's language.
struct LanguageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "language",
        abstract: "Show or set the language of your messages and pages (--here: this computer's).")

    @OptionGroup var options: ClientOptions

    @Argument(help: "A language tag, like de or es-MX (omit to show the current one).")
    var language: String?

    @Flag(help: "Use this computer's language (LC_ALL, LC_MESSAGES or LANG).")
    var here = false

    func validate() throws {
        if here, language != nil { throw ValidationError(Formatting.words("cli.language.notBoth")) }
        if here, CLIWords.computerLanguage == nil { throw ValidationError(Formatting.words("cli.language.notSet")) }
        if let language, Language(language) == nil {
            throw ValidationError(Formatting.words("cli.language.notATag", ["language": language]))
        }
    }

    func run() async throws {
        let wanted = here ? CLIWords.computerLanguage?.tag : language
        try await ClientContext.run(options) { context in
            let user =
                if let wanted { try await context.users.updateProfile(changes: ProfileChanges(language: wanted)) } else {
                    try await context.users.profile()
                }
            let chosen = user.language.flatMap { Language($0) } ?? .english
            if context.json { return try Terminal.printJSON(["language": chosen.tag]) }
            Terminal.print(CLIWords.current("cli.language.is", ["language": chosen.name]))
        }
    }
}

/// The CLI's human output follows this computer's language, as `LC_ALL`, `LC_MESSAGES` and
/// `LANG` say (in that order), falling back to English.
enum CLIWords {
    static var computerLanguage: Language? {
        let environment = ProcessInfo.processInfo.environment
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return Language(posix: value) }
        }
        return nil
    }

    static var current: Words { Words(computerLanguage ?? .english) }
}

/// `lifesignal call-in-pin [set|remove]`: four digits a call to LifeSignal's number from your
/// phone asks for before its menu. `set` reads them from standard input (never an argument, so
/// they stay out of the shell's history); the PIN is never shown back.
struct CallInPinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call-in-pin", abstract: "Whether calling LifeSignal from your phone asks for a PIN; set (from stdin) or remove it.")

    @OptionGroup var options: ClientOptions

    @Argument(help: "set (reads four digits from standard input) or remove; omit to show whether one is set.")
    var action: Action?

    enum Action: String, ExpressibleByArgument {
        case set, remove
    }

    func run() async throws {
        var pin: String?
        switch action {
        case .set?:
            if isatty(STDIN_FILENO) == 1 { Terminal.print(Formatting.words("cli.callInPin.prompt")) }
            pin = readLine(strippingNewline: true) ?? ""
        case .remove?: pin = ""
        case nil: break
        }
        try await ClientContext.run(options) { context in
            let user =
                if let pin { try await context.users.updateProfile(changes: ProfileChanges(callInPin: pin)) } else {
                    try await context.users.profile()
                }
            if context.json { return try Terminal.printJSON(["hasCallInPin": user.hasCallInPin]) }
            Terminal.print(Formatting.words(user.hasCallInPin ? "cli.callInPin.set" : "cli.callInPin.none"))
        }
    }
}
