import ArgumentParser

/// `lifesignal`: the server and the client commands in one executable.
@main
struct LifeSignalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifesignal",
        abstract: "LifeSignal: check in on your rhythm; the people you trust are told if you don't.",
        subcommands: [
            ServeCommand.self, ConfigCommand.self, BenchCommand.self, SignInCommand.self, SignOutCommand.self, CheckInCommand.self,
            StatusCommand.self, ContactsCommand.self, PingCommand.self, RespondCommand.self, AlertCommand.self,
            NotificationsCommand.self, TokenCommand.self,
        ])
}
