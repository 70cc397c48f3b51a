import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal sign-in`: phone number, then the code sent by SMS.
struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Sign in with your phone number and the code sent to it.",
        discussion: """
            Asks for the phone number and then the code. For scripts: `--phone P --send-code` \
            sends the code and stops; `--phone P --code C` then signs in without asking. \
            The session token is kept in $XDG_CONFIG_HOME/lifesignal/token (mode 0600).
            """)

    @OptionGroup var options: ClientOptions

    @Option(help: "Phone number in international form (+14155550123).")
    var phone: String?

    @Option(help: "The 6-digit code, when it was already sent (with --phone).")
    var code: String?

    @Flag(help: "Only send the code (with --phone); sign in later with --code.")
    var sendCode = false

    func validate() throws {
        if code != nil, phone == nil { throw ValidationError("--code needs --phone") }
        if sendCode, phone == nil { throw ValidationError("--send-code needs --phone") }
        if sendCode, code != nil { throw ValidationError("--send-code and --code don't go together") }
    }

    func run() async throws {
        try await ClientContext.run(options) { context in
            guard let phone = phone ?? Terminal.prompt("Phone number (e.g. +14155550123): "), !phone.isEmpty else {
                throw ValidationError("A phone number is needed: pass --phone or type it.")
            }
            var code = self.code
            if code == nil {
                let sent = try await context.auth.requestCode(phone: phone)
                if sendCode {
                    if context.json {
                        try Terminal.printJSON(sent)
                    } else {
                        Terminal.print(
                            Formatting.words("cli.signIn.codeSent", ["phone": sent.phone, "when": Formatting.time(sent.expiresAt)]))
                    }
                    return
                }
                Terminal.error(Formatting.words("cli.signIn.codeSentTo", ["phone": sent.phone]))
                code = Terminal.prompt("Code: ")
            }
            guard let code, !code.isEmpty else { throw ValidationError("The code is needed: pass --code or type it.") }
            let result = try await context.auth.verifyCode(phone: phone, code: code)
            if context.json { return try Terminal.printJSON(result) }
            let name = result.user.fullName.isEmpty ? result.user.phone : "\(result.user.fullName) (\(result.user.phone))"
            Terminal.print(Formatting.words("cli.signedIn", ["name": name]))
            if !result.user.isOnboarded {
                Terminal.print(Formatting.words("cli.welcome"))
            }
        }
    }
}

/// `lifesignal sign-out`: ends the session and forgets the token.
struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sign-out", abstract: "Sign out and forget the stored token.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await ClientContext.run(options) { context in
            guard try context.tokens.load() != nil else { throw APIError.notSignedIn }
            try await context.auth.signOut()
            if context.json { return try Terminal.printJSON(["signedOut": true]) }
            Terminal.print(Formatting.words("cli.signedOut"))
        }
    }
}

/// `lifesignal token create|list|revoke`: personal API tokens for scripts and integrations.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Personal API tokens for scripts and integrations.",
        discussion: "A script passes its token in LIFESIGNAL_TOKEN; the stored sign-in is then not used.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token; it is shown once. Use it as `Authorization: Bearer <token>`.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "A name to recognise it by (\"Home Assistant\").")
        var name: String

        @Option(help: "check_in (default: may check in and read your status, nothing else) or full.")
        var scope: String = Session.Scope.checkIn.rawValue

        func validate() throws {
            guard Session.Scope(rawValue: scope) != nil else { throw ValidationError("--scope must be check_in or full.") }
        }

        func run() async throws {
            try await ClientContext.run(options) { context in
                let token = try await context.auth.createToken(name: name, scope: Session.Scope(rawValue: scope)!)
                if context.json { return try Terminal.printJSON(token) }
                Terminal.print(token.token)
                Terminal.error(Formatting.words("cli.token.created", ["name": token.session.name]))
            }
        }
    }
}
