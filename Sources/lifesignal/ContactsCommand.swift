import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels

/// `lifesignal contacts`: list, ask to link by code or link, answer requests, remove.
struct ContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts", abstract: "Your responders and dependents.",
        subcommands: [List.self, Add.self, Requests.self, Accept.self, Decline.self, Remove.self, Code.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List responders and dependents (the default).")

        @OptionGroup var options: ClientOptions

        @Option(help: "urgency (default), name or date_added.")
        var sort: String = ContactSort.urgency.rawValue

        func run() async throws {
            guard let order = ContactSort(rawValue: sort) else {
                throw ValidationError(
                    Formatting.words("cli.contacts.badSort", ["orders": ContactSort.allCases.map(\.rawValue).joined(separator: ", ")]))
            }
            try await ClientContext.run(options) { context in
                let lists = try await context.contacts.list(sort: order)
                if context.json { return try Terminal.printJSON(lists) }
                let w = Formatting.words
                Terminal.print(w("cli.contacts.responders"))
                if lists.responders.isEmpty { Terminal.print("  " + w("cli.contacts.noResponders")) }
                for contact in lists.responders {
                    let ping = contact.incomingPing.map { " · " + w("cli.contacts.pingedYou", ["when": Formatting.time($0.sentAt)]) } ?? ""
                    Terminal.print("  \(contact.fullName)  \(contact.phone)\(ping)  [\(contact.userID)]")
                }
                Terminal.print(w("cli.contacts.dependents"))
                if lists.dependents.isEmpty { Terminal.print("  " + w("cli.contacts.none")) }
                for contact in lists.dependents {
                    let status = contact.status.map { Formatting.statusLine($0) } ?? ""
                    let ping =
                        contact.outgoingPing.map { " · " + w("cli.contacts.pingPending", ["when": Formatting.time($0.sentAt)]) } ?? ""
                    Terminal.print("  \(contact.fullName)  \(status)\(ping)  [\(contact.userID)]")
                }
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask someone to link, by their code or lifesignal://contact/ link.",
            discussion: "They are asked to accept; nothing is shared until they do.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "Their code (32 characters) or link.")
        var code: String

        @Flag(help: "They watch over you: they see your status and get your alerts.")
        var responder = false

        @Flag(help: "You watch over them: you see their status and may ping them.")
        var dependent = false

        func validate() throws {
            if !responder, !dependent { throw ValidationError(Formatting.words("cli.contacts.chooseRole")) }
        }

        func run() async throws {
            var roles: ContactRoles = []
            if responder { roles.insert(.responder) }
            if dependent { roles.insert(.dependent) }
            try await ClientContext.run(options) { context in
                let request = try await context.contacts.add(codeOrLink: code, roles: roles)
                if context.json { return try Terminal.printJSON(request) }
                Terminal.print(
                    Formatting.words(
                        "cli.contacts.asked",
                        ["name": request.toName, "what": RequestWording.outgoing(request), "id": "\(request.id)"]))
            }
        }
    }

    struct Requests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Requests to link: the ones you received and the ones you sent.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let lists = try await context.contacts.requests()
                if context.json { return try Terminal.printJSON(lists) }
                let incoming = lists.incoming.filter(\.isPending)
                let outgoing = lists.outgoing.filter(\.isPending)
                let w = Formatting.words
                Terminal.print(w("cli.requests.asking"))
                if incoming.isEmpty { Terminal.print("  " + w("cli.requests.nobody")) }
                for request in incoming { Terminal.print("  \(RequestWording.incoming(request))  [\(request.id)]") }
                Terminal.print(w("cli.requests.waiting"))
                if outgoing.isEmpty { Terminal.print("  " + w("cli.requests.nothing")) }
                for request in outgoing { Terminal.print("  \(RequestWording.outgoing(request))  [\(request.id)]") }
            }
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept a request sent to you.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The request's id, or the name of who sent it.")
        var request: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let lists = try await context.contacts.requests()
                let found = try RequestWording.find(request, in: lists.incoming.filter(\.isPending).map { ($0, $0.fromName) })
                let contact = try await context.contacts.acceptRequest(found.id, found.roles)
                if context.json { return try Terminal.printJSON(contact) }
                Terminal.print(
                    Formatting.words("cli.contacts.linked", ["name": contact.fullName, "roles": Formatting.roles(contact.roles)]))
            }
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline a request sent to you, or withdraw one you sent.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The request's id, or the other person's name.")
        var request: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let lists = try await context.contacts.requests()
                let pending =
                    lists.incoming.filter(\.isPending).map { ($0, $0.fromName) }
                    + lists.outgoing.filter(\.isPending).map { ($0, $0.toName) }
                let found = try RequestWording.find(request, in: pending)
                let answered = try await context.contacts.declineRequest(id: found.id)
                if context.json { return try Terminal.printJSON(answered) }
                Terminal.print(Formatting.words(answered.state == .cancelled ? "cli.requests.withdrawn" : "cli.requests.declined"))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a contact, on both sides.")

        @OptionGroup var options: ClientOptions

        @Argument(help: "The contact's id or name.")
        var contact: String

        func run() async throws {
            try await ClientContext.run(options) { context in
                let lists = try await context.contacts.list(sort: .name)
                let found = try ContactMatch.find(contact, in: lists.responders + lists.dependents)
                try await context.contacts.remove(id: found.userID)
                if context.json { return try Terminal.printJSON(["removed": found.userID]) }
                Terminal.print(Formatting.words("cli.contacts.removed", ["name": found.fullName]))
            }
        }
    }

    struct Code: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your contact code and link, to share.")

        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await ClientContext.run(options) { context in
                let code = try await context.contacts.contactCode()
                if context.json { return try Terminal.printJSON(code) }
                Terminal.print("\(code.code)\n\(code.link)")
            }
        }
    }
}

/// Finds a contact by id or by name (full or first, any case), for commands that take either.
enum ContactMatch {
    /// The caller's dependent named by `text` (an id, a full or a first name).
    static func dependent(_ text: String, _ context: ClientContext) async throws -> Contact {
        try find(text, in: try await context.contacts.list(sort: .name).dependents)
    }

    static func find(_ text: String, in contacts: [Contact]) throws -> Contact {
        if let id = UserID(string: text), let contact = contacts.first(where: { $0.userID == id }) { return contact }
        let wanted = text.lowercased()
        var unique: [UserID: Contact] = [:]
        for contact in contacts where contact.fullName.lowercased() == wanted || contact.firstName.lowercased() == wanted {
            unique[contact.userID] = contact
        }
        switch unique.count {
        case 1: return unique.values.first!
        case 0: throw ValidationError(Formatting.words("cli.contacts.noMatch", ["text": text]))
        default: throw ValidationError(Formatting.words("cli.contacts.severalMatch", ["text": text]))
        }
    }
}

/// Requests in the same words as the web app, and finding one by id or name.
enum RequestWording {
    static func incoming(_ request: ContactRequest) -> String {
        let name = ["name": request.fromName]
        return switch (request.roles.isResponder, request.roles.isDependent) {
        case (true, true): Formatting.words("cli.requests.incoming.both", name)
        case (false, true): Formatting.words("cli.requests.incoming.watchYou", name)
        default: Formatting.words("cli.requests.incoming.watchThem", name)
        }
    }

    static func outgoing(_ request: ContactRequest) -> String {
        switch (request.roles.isResponder, request.roles.isDependent) {
        case (true, true): Formatting.words("cli.requests.outgoing.both")
        case (false, true): Formatting.words("cli.requests.outgoing.watchThem")
        default: Formatting.words("cli.requests.outgoing.watchYou")
        }
    }

    /// By id, or by the other person's name (full or first, any case).
    static func find(_ text: String, in requests: [(request: ContactRequest, otherName: String)]) throws -> ContactRequest {
        if let id = ContactRequestID(string: text), let found = requests.first(where: { $0.request.id == id }) { return found.request }
        let wanted = text.lowercased()
        let matches = requests.filter { _, name in
            name.lowercased() == wanted || name.split(separator: " ").first?.lowercased() == wanted
        }
        switch matches.count {
        case 1: return matches[0].request
        case 0: throw ValidationError(Formatting.words("cli.requests.noMatch", ["text": text]))
        default: throw ValidationError(Formatting.words("cli.requests.severalMatch", ["text": text]))
        }
    }
}
