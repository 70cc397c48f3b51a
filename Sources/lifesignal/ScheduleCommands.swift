import ArgumentParser
import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

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

        @Option(help: "The days to call, e.g. mon-fri or mon,wed,fri; default: every day.")
        var days: String?

        func run() async throws {
            let (parts, zone) = (try ClockArgument.parse(time), try ClockArgument.zone(timeZone))
            let weekdays = try days.map(WeekdayArgument.parse) ?? DailyCall.everyDay
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
