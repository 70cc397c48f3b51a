import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal sessions [revoke <id>]`: where you are signed in, and API tokens.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "Where you are signed in, and your API tokens; revoke one.",
        subcommands: [List.self, Revoke.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List sessions and API tokens.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let sessions = try await context.auth.sessions()
                if context.json { return try Terminal.printJSON(sessions) }
                SessionWording.print(sessions, empty: Formatting.words("cli.sessions.none"))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign a device out, or stop an API token working.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The session's or token's id, or its name.")
        var session: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let found = try SessionWording.find(session, in: try await context.auth.sessions())
                try await context.auth.revoke(id: found.id)
                if context.json { return try Terminal.printJSON(["revoked": found.id]) }
                Terminal.print(
                    Formatting.words(
                        found.kind == .apiToken ? "cli.sessions.revokedToken" : "cli.sessions.revokedSession", ["name": found.name]))
            }
        }
    }
}

extension TokenCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your API tokens.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let tokens = try await context.auth.sessions().filter { $0.kind == .apiToken }
                if context.json { return try Terminal.printJSON(tokens) }
                SessionWording.print(tokens, empty: Formatting.words("cli.tokens.none"))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop an API token working.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The token's id or name.")
        var token: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let found = try SessionWording.find(token, in: try await context.auth.sessions().filter { $0.kind == .apiToken })
                try await context.auth.revoke(id: found.id)
                if context.json { return try Terminal.printJSON(["revoked": found.id]) }
                Terminal.print(Formatting.words("cli.tokens.revoked", ["name": found.name]))
            }
        }
    }
}

enum SessionWording {
    static func print(_ sessions: [Session], empty: String) {
        if sessions.isEmpty { return Terminal.print(empty) }
        for session in sessions {
            let w = Formatting.words
            var line = "  \(w(session.kind == .apiToken ? "cli.sessions.token" : "cli.sessions.session"))  \(session.name)"
            if session.kind == .apiToken { line += " (\(session.scope.rawValue))" }
            line += " · " + w("cli.sessions.lastUsed", ["when": Formatting.time(session.lastUsedAt)])
            if let expiresAt = session.expiresAt { line += " · " + w("cli.sessions.expires", ["when": Formatting.time(expiresAt)]) }
            Terminal.print("\(line)  [\(session.id)]")
        }
    }

    /// By id, or by name (any case) when exactly one has it.
    static func find(_ text: String, in sessions: [Session]) throws -> Session {
        if let id = SessionID(string: text), let found = sessions.first(where: { $0.id == id }) { return found }
        let matches = sessions.filter { $0.name.lowercased() == text.lowercased() }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw ValidationError(Formatting.words("cli.sessions.noMatch", ["text": text]))
        default: throw ValidationError(Formatting.words("cli.sessions.severalMatch", ["text": text]))
        }
    }
}

/// `lifesignal channels`: where you are reached besides the app.
struct ChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels", abstract: "Where you are reached: list, add, verify or remove a channel.",
        subcommands: [List.self, Add.self, Verify.self, Remove.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your channels in the order they are tried.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let channels = try await context.settings.channels()
                if context.json { return try Terminal.printJSON(channels) }
                if channels.isEmpty { return Terminal.print(Formatting.words("cli.channels.onlyApp")) }
                for channel in channels.sorted(by: { $0.priority < $1.priority }) {
                    Terminal.print("  \(channel.priority). \(channel.kind.rawValue)  \(channel.address)  [\(channel.id)]")
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a channel: sms, voice, email, webhook, ntfy, web_push, apns or log.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The kind: \(ChannelKind.allCases.filter { $0 != .inApp }.map(\.rawValue).joined(separator: ", ")).")
        var kind: String

        @Argument(help: "The address: a phone number, e-mail, URL, ntfy topic or device token.")
        var address: String

        func validate() throws {
            guard let kind = ChannelKind(rawValue: kind), kind != .inApp else {
                let kinds = ChannelKind.allCases.filter { $0 != .inApp }.map(\.rawValue).joined(separator: ", ")
                throw ValidationError(Formatting.words("cli.channels.badKind", ["kinds": kinds]))
            }
        }

        func run() async throws {
            try await ClientContext.run(options) { context in
                let channel = try await context.settings.addChannel(
                    registration: ChannelRegistration(kind: ChannelKind(rawValue: kind)!, address: address))
                if context.json { return try Terminal.printJSON(channel) }
                let w = Formatting.words
                Terminal.print(
                    w("cli.channels.added", ["kind": channel.kind.rawValue, "address": channel.address, "id": "\(channel.id)"]))
                if let secret = channel.signingSecret {
                    Terminal.print(w("cli.channels.secret", ["secret": secret]))
                }
                if !channel.isVerified {
                    Terminal.print(w("cli.channels.codeOnItsWay", ["id": "\(channel.id)"]))
                }
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Confirm a text, call or e-mail channel with the code sent to it.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The channel's id, or its address.")
        var channel: String

        @Argument(help: "The 6-digit code.")
        var code: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let found = try await ChannelsCommand.find(channel, in: context.settings.channels())
                let verified = try await context.settings.verifyChannel(id: found.id, code: code)
                if context.json { return try Terminal.printJSON(verified) }
                Terminal.print(
                    Formatting.words("cli.channels.confirmed", ["kind": verified.kind.rawValue, "address": verified.address]))
            }
        }
    }

    /// A channel named by its id or its address.
    static func find(_ channel: String, in channels: [Channel]) throws -> Channel {
        if let id = ChannelID(string: channel), let match = channels.first(where: { $0.id == id }) { return match }
        if let match = channels.first(where: { $0.address == channel }) { return match }
        throw ValidationError(Formatting.words("cli.channels.noMatch", ["text": channel]))
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a channel.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The channel's id, or its address.")
        var channel: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let found = try await ChannelsCommand.find(channel, in: context.settings.channels())
                try await context.settings.removeChannel(id: found.id)
                if context.json { return try Terminal.printJSON(["removed": found.id]) }
                Terminal.print(Formatting.words("cli.channels.removed", ["kind": found.kind.rawValue, "address": found.address]))
            }
        }
    }
}
