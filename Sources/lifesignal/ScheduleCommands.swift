import ArgumentParser
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// `lifesignal pause until <date>|off|list|add|remove`: no reminders and no alerts until a
/// date, from now or planned ahead (days off).
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Pause reminders and alerts until a date, plan days off, or end a pause.",
        subcommands: [Until.self, Off.self, List.self, Add.self, Remove.self])

    struct Until: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pause until a date (YYYY-MM-DD: the start of that day here) or an ISO date-time.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "2026-12-24, or 2026-12-24T18:00:00Z.")
        var date: String

        @Option(help: "While an alert about a missed check-in is open: resolve (I'm fine) or keep-open.")
        var openIncident: String?

        func run() async throws {
            guard let until = DateArgument.parse(date) else {
                throw ValidationError(Formatting.words("cli.pause.badDate", ["date": date]))
            }
            let choice = try PauseCommand.choice(openIncident)
            try await ClientContext.run(options) { context in
                let status = try await context.users.setPause(until, choice)
                if context.json { return try Terminal.printJSON(status) }
                Terminal.print(
                    Formatting.words(
                        "cli.pause.until",
                        ["when": Formatting.time(status.pausedUntil ?? until), "status": Formatting.statusLine(status)]))
            }
        }
    }

    struct Off: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the pause now; a new period starts.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let status = try await context.users.setPause(nil, nil)
                if context.json { return try Terminal.printJSON(status) }
                Terminal.print(Formatting.words("cli.pause.ended", ["status": Formatting.statusLine(status)]))
            }
        }
    }
}

extension PauseCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your pauses that have not ended, earliest first.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let pauses = try await context.pauses.pauses()
                if context.json { return try Terminal.printJSON(pauses) }
                if pauses.isEmpty { return Terminal.print(Formatting.words("cli.pause.none")) }
                for pause in pauses { Terminal.print("  " + PauseCommand.line(pause)) }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plan days off: from a date until a date (YYYY-MM-DD: the start of that day here), at most 30 days.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The first day away: 2026-12-24, or 2026-12-24T18:00:00Z.")
        var from: String

        @Argument(help: "The day you are back: 2026-12-27, or 2026-12-27T09:00:00Z.")
        var until: String

        func run() async throws {
            guard let start = DateArgument.parse(from) else {
                throw ValidationError(Formatting.words("cli.pause.badDate", ["date": from]))
            }
            guard let end = DateArgument.parse(until) else {
                throw ValidationError(Formatting.words("cli.pause.badDate", ["date": until]))
            }
            try await ClientContext.run(options) { context in
                let pause = try await context.pauses.add(start, end, nil)
                if context.json { return try Terminal.printJSON(pause) }
                Terminal.print(
                    Formatting.words("cli.pause.planned", ["from": Formatting.time(pause.from), "until": Formatting.time(pause.until)]))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End a pause now, or call off one planned ahead (its id, or the first characters of it).")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The pause's id as `pause list --json` shows it, or its first characters.")
        var pause: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let matches = try await context.pauses.pauses().filter { $0.id.description.hasPrefix(pause.lowercased()) }
                guard matches.count == 1, let found = matches.first else {
                    throw ValidationError(
                        Formatting.words(matches.isEmpty ? "cli.sessions.noMatch" : "cli.sessions.severalMatch", ["text": pause]))
                }
                let status = try await context.pauses.remove(found.id)
                if context.json { return try Terminal.printJSON(status) }
                Terminal.print(Formatting.words("cli.pause.removed", ["status": Formatting.statusLine(status)]))
            }
        }
    }

    /// "2026-12-24 00:00 – 2026-12-27 00:00 (set by Ada)  1b2c3d4e".
    static func line(_ pause: Pause) -> String {
        Formatting.words(
            "cli.pause.line",
            [
                "from": Formatting.time(pause.from), "until": Formatting.time(pause.until), "name": pause.setByName,
                "id": String(pause.id.description.prefix(8)),
            ])
    }

    static func choice(_ text: String?) throws -> OpenIncidentChoice? {
        guard let text else { return nil }
        guard let choice = OpenIncidentChoice(rawValue: text.replacing("-", with: "_")) else {
            throw ValidationError(Formatting.words("cli.pause.badChoice", ["text": text]))
        }
        return choice
    }
}

/// `lifesignal rhythm`: how often you must check in: every N hours/days, or daily by a time.
struct RhythmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rhythm", abstract: "How often you check in: show it, or set a rolling interval or a daily deadline.",
        subcommands: [Show.self, Every.self, Daily.self, Call.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your rhythm and grace period.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let user = try await context.users.profile()
                if context.json { return try Terminal.printJSON(user) }
                Terminal.print(
                    Formatting.words(
                        "cli.rhythm.withGrace", ["rhythm": ScheduleWording.text(user.schedule), "minutes": String(user.graceMinutes)]))
            }
        }
    }

    struct Every: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check in every so often, counted from your last check-in (1 hour to 7 days).")

        @OptionGroup var options: ClientOptions

        @Argument(help: "8h, 24h, 2d, 1d12h, 90m…")
        var interval: String

        func run() async throws {
            guard let seconds = DurationArgument.seconds(interval) else {
                throw ValidationError(Formatting.words("cli.rhythm.badInterval", ["interval": interval]))
            }
            try await ClientContext.run(options) { context in
                let user = try await context.users.updateProfile(changes: ProfileChanges(schedule: .interval(seconds: seconds)))
                if context.json { return try Terminal.printJSON(user) }
                Terminal.print("\(ScheduleWording.text(user.schedule)).")
            }
        }
    }

    /// `lifesignal rhythm daily 09:30 21:30 [--on 21:30=mon-fri] [--on 11:00=sun]`: up to four
    /// deadlines a day, each every day unless `--on` names its days.
    struct Daily: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check in by up to four times of day, each every day or on the days you name.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The deadlines, HH:MM (24-hour), one to four.")
        var times: [String]

        @Option(
            name: .customLong("on"),
            help: "The days of one of the times: 21:30=mon-fri, 11:00=sun, 09:30=mon,wed,fri; default: every day.")
        var on: [String] = []

        @Option(help: "An IANA time zone (Europe/London); default: this computer's.")
        var timeZone: String?

        func run() async throws {
            var times = try self.times.map { text in
                let parts = try ClockArgument.parse(text)
                return DailySchedule.Time(hour: parts.hour, minute: parts.minute)
            }
            for rule in on {
                let pair = rule.split(separator: "=", maxSplits: 1).map(String.init)
                let time = try ClockArgument.parse(pair.first ?? "")
                guard pair.count == 2, let index = times.firstIndex(where: { $0.hour == time.hour && $0.minute == time.minute })
                else {
                    throw ValidationError(Formatting.words("cli.rhythm.onUnknownTime", ["rule": rule]))
                }
                times[index].weekdays = try WeekdayArgument.parse(pair[1])
            }
            let schedule = CheckInSchedule.daily(DailySchedule(times: times, timeZone: try ClockArgument.zone(timeZone)))
            try await ClientContext.run(options) { context in
                let user = try await context.users.updateProfile(changes: ProfileChanges(schedule: schedule))
                if context.json { return try Terminal.printJSON(user) }
                Terminal.print("\(ScheduleWording.text(user.schedule)).")
            }
        }
    }
}

/// Days as the rhythm commands take them: `mon,tue`, `mon-fri`, `sat,sun`, `fri-mon` (ranges
/// wrap past Sunday); ISO numbers out (1 Monday … 7 Sunday).
enum WeekdayArgument {
    static func parse(_ text: String) throws -> Set<Int> {
        var days: Set<Int> = []
        func day(_ name: Substring) throws -> Int {
            let name = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let index = DailyCall.weekdayNames.firstIndex(of: name) else {
                throw ValidationError(Formatting.words("cli.rhythm.badDays", ["days": text]))
            }
            return index + 1
        }
        for part in text.split(separator: ",") {
            let ends = part.split(separator: "-", maxSplits: 1)
            var from = try day(ends[0])
            let to = ends.count == 2 ? try day(ends[1]) : from
            days.insert(from)
            while from != to {
                from = from % 7 + 1
                days.insert(from)
            }
        }
        guard !days.isEmpty else { throw ValidationError(Formatting.words("cli.rhythm.badDays", ["days": text])) }
        return days
    }
}

extension RhythmCommand {
    /// `lifesignal rhythm call 09:00 [--attempts 3] [--retry 15] [--number +49…] [--days mon,tue…]`.
    struct Call: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Be called every day at a time (a landline is fine); pressing 1 on the call is the check-in.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "When the first call rings, HH:MM (24-hour).")
        var time: String

        @Option(help: "An IANA time zone (Europe/London); default: this computer's.")
        var timeZone: String?

        @Option(help: "How many times the call is tried when no key is pressed (1–5).")
        var attempts = DailyCall.defaultAttempts

        @Option(name: .customLong("retry"), help: "Minutes between tries (5–60).")
        var retryMinutes = DailyCall.defaultRetryMinutes

        @Option(help: "The number to call; default: your own phone. Another must be one you proved under `channels`.")
        var number: String?

        @Option(help: "The days to call, e.g. mon,tue,wed,thu,fri; default: every day.")
        var days: String?

        func run() async throws {
            let (parts, zone) = (try ClockArgument.parse(time), try ClockArgument.zone(timeZone))
            var weekdays = DailyCall.everyDay
            if let days {
                let names = days.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let found = names.compactMap { name in DailyCall.weekdayNames.firstIndex { $0 == name }.map { $0 + 1 } }
                guard !names.isEmpty, found.count == names.count else {
                    throw ValidationError(Formatting.words("cli.rhythm.badDays", ["days": days]))
                }
                weekdays = Set(found)
            }
            let call = DailyCall(
                hour: parts.hour, minute: parts.minute, timeZone: zone, attempts: attempts, retryMinutes: retryMinutes,
                weekdays: weekdays, number: number)
            try await ClientContext.run(options) { context in
                let user = try await context.users.updateProfile(changes: ProfileChanges(schedule: .dailyCall(call)))
                if context.json { return try Terminal.printJSON(user) }
                Terminal.print("\(ScheduleWording.text(user.schedule)).")
            }
        }
    }
}

/// `lifesignal grace [minutes]`: how long after a missed deadline responders are alerted.
struct GraceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grace", abstract: "Show or set the minutes after a missed deadline before responders are alerted (0–60).")

    @OptionGroup var options: ClientOptions

    @Argument(help: "Minutes, 0 to 60 (omit to show the current grace period).")
    var minutes: Int?

    func run() async throws {
        try await ClientContext.run(options) { context in
            let user =
                if let minutes { try await context.users.updateProfile(changes: ProfileChanges(graceMinutes: minutes)) } else {
                    try await context.users.profile()
                }
            if context.json { return try Terminal.printJSON(user) }
            Terminal.print(Formatting.words("cli.grace.is", ["minutes": String(user.graceMinutes)]))
        }
    }
}

enum ScheduleWording {
    static func text(_ schedule: CheckInSchedule) -> String {
        switch schedule {
        case let .interval(seconds): Formatting.words("cli.rhythm.every", ["interval": DurationArgument.text(seconds)])
        case let .daily(daily) where daily.times.count == 1 && daily.first.isEveryDay:
            Formatting.words("cli.rhythm.daily", ["time": daily.first.time, "zone": daily.timeZone])
        case let .daily(daily):
            Formatting.words(
                "cli.rhythm.dailyTimes", ["schedule": DailyScheduleWords.text(daily, words: CLIWords.current), "zone": daily.timeZone])
        case let .dailyCall(call):
            Formatting.words(
                "cli.rhythm.call",
                [
                    "time": call.time, "zone": call.timeZone, "attempts": String(call.attempts),
                    "retry": String(call.retryMinutes), "number": call.number ?? Formatting.words("cli.rhythm.callOwnPhone"),
                ])
        }
    }
}

/// `HH:MM` and a time zone as the rhythm commands take them.
enum ClockArgument {
    static func parse(_ time: String) throws -> (hour: Int, minute: Int) {
        let parts = time.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else {
            throw ValidationError(Formatting.words("cli.rhythm.badTime", ["time": time]))
        }
        return (parts[0], parts[1])
    }

    /// `zone`, or this computer's, when it is a zone the system knows.
    static func zone(_ zone: String?) throws -> String {
        let zone = zone ?? TimeZone.current.identifier
        guard TimeZone(identifier: zone) != nil else {
            throw ValidationError(Formatting.words("cli.rhythm.badZone", ["zone": zone]))
        }
        return zone
    }
}

/// `8h`, `2d`, `1d12h`, `90m` to seconds, and back.
enum DurationArgument {
    static func seconds(_ text: String) -> Int? {
        var total = 0
        var number = ""
        var sawUnit = false
        for character in text.lowercased() {
            if character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int? =
                switch character {
                case "m": 60
                case "h": 3600
                case "d": 86400
                case "w": 7 * 86400
                default: nil
                }
            guard let unit, let value = Int(number) else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit, total > 0 else { return nil }
        return total
    }

    static func text(_ seconds: Int) -> String {
        var parts: [String] = []
        if seconds / 86400 > 0 { parts.append("\(seconds / 86400)d") }
        if seconds % 86400 / 3600 > 0 { parts.append("\(seconds % 86400 / 3600)h") }
        if seconds % 3600 / 60 > 0 { parts.append("\(seconds % 3600 / 60)m") }
        return parts.isEmpty ? "\(seconds)s" : parts.joined()
    }
}

/// `2026-12-24` (the start of that day in this computer's time zone) or an ISO 8601 date-time.
enum DateArgument {
    static func parse(_ text: String) -> Date? {
        if let date = ISODate.parse(text) { return date }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let components = DateComponents(year: parts[0], month: parts[1], day: parts[2])
        guard let date = calendar.date(from: components) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard [back.year, back.month, back.day] == parts.map(Optional.some) else { return nil }
        return date
    }
}

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
