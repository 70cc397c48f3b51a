import ArgumentParser

/// `lifesignal`: the server and the client commands in one executable.
@main
struct LifeSignalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifesignal",
        abstract: "LifeSignal: check in on your rhythm; the people you trust are told if you don't.",
        discussion: """
            Client commands talk to the server in LIFESIGNAL_SERVER (or --server; default http://localhost:8080) \
            with the token stored by `sign-in`, or, for scripts, the API token in LIFESIGNAL_TOKEN. Every client \
            command takes --json. Exit codes: 0 done, 1 the server refused (its message on stderr), 2 usage, \
            3 not signed in, 4 server unreachable.

            Shell completions: `lifesignal --generate-completion-script bash` (or zsh, fish), e.g. \
            `lifesignal --generate-completion-script bash > /etc/bash_completion.d/lifesignal`.
            """,
        subcommands: [
            ServeCommand.self, ConfigCommand.self, BenchCommand.self, SignInCommand.self, SignOutCommand.self, CheckInCommand.self,
            StatusCommand.self, ContactsCommand.self, PingCommand.self, RespondCommand.self, AlertCommand.self,
            IncidentCommand.self, NotificationsCommand.self, PauseCommand.self, RhythmCommand.self, GraceCommand.self,
            TimelineCommand.self, PreviewCommand.self, DrillCommand.self, ChannelsCommand.self, SessionsCommand.self,
            TokenCommand.self, TimeZoneCommand.self, QuietHoursCommand.self, LanguageCommand.self, LadderCommand.self,
            DailyCallsCommand.self,
            CallInPinCommand.self, DevicesCommand.self, PlanCommand.self, LaterCommand.self, ExportCommand.self,
            MigrateDataCommand.self,
        ])
}
