import ArgumentParser

/// The exit codes of the client commands, for scripts:
///
/// | code | meaning |
/// | --- | --- |
/// | 0 | done |
/// | 1 | the server refused (its message is on stderr) |
/// | 2 | usage: unknown command, bad or missing option |
/// | 3 | not signed in (or the session was revoked): run `lifesignal sign-in` |
/// | 4 | the server could not be reached (a check-in is then queued and sent next time) |
enum ClientExit {
    static let apiError = ExitCode(1)
    static let usage = ExitCode(2)
    static let notSignedIn = ExitCode(3)
    static let unreachable = ExitCode(4)
}

extension LifeSignalCommand {
    /// ArgumentParser exits 64 (EX_USAGE) on a usage error; the CLI documents 2, like most
    /// Unix tools. Everything else is ArgumentParser's own handling.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                Terminal.error(fullMessage(for: error))
                exit(withError: ClientExit.usage)
            }
            exit(withError: error)
        }
    }
}
