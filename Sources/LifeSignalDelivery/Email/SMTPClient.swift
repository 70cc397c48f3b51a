import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// One SMTP transaction per connection (RFC 5321): greeting, EHLO, optional STARTTLS and AUTH,
/// MAIL FROM, RCPT TO, DATA, QUIT. Small on purpose: notifications are one message to one person.
struct SMTPClient: Sendable {
    struct Server: Sendable {
        var host: String
        var port: Int
        var security: SMTPSecurity
        var username: String?
        var password: String?
        /// The name this client gives in EHLO.
        var heloName: String
        var tlsConfiguration: TLSConfiguration
        var connectTimeout: Duration
        /// The whole transaction, connection included.
        var timeout: Duration
    }

    /// A message ready for the wire: envelope plus the RFC 5322 text (headers and body, CRLF).
    struct Envelope: Sendable {
        var from: String
        var recipients: [String]
        var data: String
    }

    let server: Server
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger

    /// Sends `envelope`; returns the server's final reply text to DATA.
    func send(_ envelope: Envelope) async throws(SMTPError) -> String {
        let tls = TLSFailureRecorder()
        let channel = try await connect(tls: tls)
        do {
            return try await withThrowingTaskGroup(of: String?.self) { group in
                group.addTask { try await converse(over: channel, envelope: envelope, tls: tls) }
                group.addTask {
                    try await Task.sleep(for: server.timeout)
                    throw SMTPError.timedOut
                }
                defer { group.cancelAll() }
                let result = try await group.next()!
                return result ?? ""
            }
        } catch {
            channel.channel.close(promise: nil)
            if let failure = tls.failure { throw .tlsFailed(failure) }
            if let error = error as? SMTPError { throw error }
            if let error = error as? NIOSSLError { throw .tlsFailed("\(error)") }
            if error is NIOSSLExtraError { throw .tlsFailed("\(error)") }
            if error is ChannelError || error is IOError { throw .connectionClosed }
            throw .protocolViolation(String(describing: error))
        }
    }

    private func connect(tls recorder: TLSFailureRecorder) async throws(SMTPError) -> NIOAsyncChannel<String, ByteBuffer> {
        let server = self.server
        let sslContext: NIOSSLContext?
        do {
            sslContext = server.security == .none ? nil : try NIOSSLContext(configuration: server.tlsConfiguration)
        } catch {
            throw .tlsFailed("\(error)")
        }
        let implicitTLS = server.security == .implicitTLS
        do {
            return try await ClientBootstrap(group: eventLoopGroup)
                .connectTimeout(.of(server.connectTimeout))
                .connect(host: server.host, port: server.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if implicitTLS, let sslContext {
                            try channel.pipeline.syncOperations.addTLSClient(
                                context: sslContext, serverHostname: Self.sniName(server.host), recorder: recorder)
                        }
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPLineDecoder()))
                        return try NIOAsyncChannel<String, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            if case .connectTimeout = error as? ChannelError { throw .timedOut }
            throw .connectionFailed(String(describing: error))
        }
    }

    /// IP literals are not allowed in SNI; NIOSSL then checks the certificate against the address.
    static func sniName(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }

    private func converse(
        over channel: NIOAsyncChannel<String, ByteBuffer>, envelope: Envelope, tls: TLSFailureRecorder
    ) async throws -> String {
        try await channel.executeThenClose { inbound, outbound in
            var lines = inbound.makeAsyncIterator()
            var conversation = Conversation(
                lines: { try await lines.next() }, write: { try await outbound.write(ByteBuffer(string: $0)) }, logger: logger)

            try await conversation.expect(220, for: "greeting")
            var capabilities = try await conversation.ehlo(server.heloName)

            if server.security == .startTLS {
                guard capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                    throw SMTPError.tlsFailed("the server does not offer STARTTLS")
                }
                try await conversation.command("STARTTLS", expect: 220)
                let context: NIOSSLContext
                do { context = try NIOSSLContext(configuration: server.tlsConfiguration) } catch { throw SMTPError.tlsFailed("\(error)") }
                let hostname = Self.sniName(server.host)
                let connection = channel.channel
                try await connection.eventLoop.submit {
                    try connection.pipeline.syncOperations.addTLSClient(context: context, serverHostname: hostname, recorder: tls)
                }.get()
                // RFC 3207: forget everything learnt before TLS and ask again.
                capabilities = try await conversation.ehlo(server.heloName)
            }

            if let username = server.username, let password = server.password {
                try await conversation.authenticate(username: username, password: password, capabilities: capabilities)
            }

            try await conversation.command("MAIL FROM:<\(envelope.from)>", name: "MAIL FROM", expect: 250)
            for recipient in envelope.recipients {
                try await conversation.command("RCPT TO:<\(recipient)>", name: "RCPT TO", expect: 250, 251)
            }
            try await conversation.command("DATA", expect: 354)
            let accepted = try await conversation.command(Self.dotStuffed(envelope.data), name: "DATA", expect: 250, log: false)
            // The message is accepted; a failed QUIT changes nothing.
            _ = try? await conversation.command("QUIT", expect: 221)
            return accepted
        }
    }

    /// The message body as DATA wants it: CRLF line endings, a leading "." doubled on every line
    /// (RFC 5321 §4.5.2), and the terminating "." line.
    static func dotStuffed(_ text: String) -> String {
        var normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if normalized.hasSuffix("\n") { normalized.removeLast() }
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") ? "." + line : String(line)
        }
        return lines.joined(separator: "\r\n") + "\r\n."
    }
}

/// Reading replies and writing commands, one step at a time.
private struct Conversation {
    var lines: () async throws -> String?
    var write: (String) async throws -> Void
    let logger: Logger

    /// Reads one possibly multi-line reply ("250-…" lines then "250 …").
    mutating func reply() async throws -> (code: Int, lines: [String]) {
        var texts: [String] = []
        while true {
            guard let line = try await lines() else { throw SMTPError.connectionClosed }
            guard line.utf8.count >= 3, let code = Int(line.prefix(3)) else {
                throw SMTPError.protocolViolation("unexpected reply: \(line.prefix(80))")
            }
            let separator = line.dropFirst(3).first
            texts.append(String(line.dropFirst(4)))
            if separator != "-" { return (code, texts) }
        }
    }

    mutating func expect(_ codes: Int..., for name: String) async throws {
        let (code, texts) = try await reply()
        guard codes.contains(code) else {
            throw SMTPError.rejected(command: name, code: code, text: texts.joined(separator: " "))
        }
    }

    @discardableResult
    mutating func command(_ line: String, name: String? = nil, expect codes: Int..., log: Bool = true) async throws -> String {
        let name = name ?? line
        if log { logger.trace("SMTP >", metadata: ["command": "\(name)"]) }
        try await write(line + "\r\n")
        let (code, texts) = try await reply()
        guard codes.contains(code) else {
            throw SMTPError.rejected(command: name, code: code, text: texts.joined(separator: " "))
        }
        return texts.joined(separator: " ")
    }

    /// Sends EHLO and returns the advertised extensions (the lines after the greeting).
    mutating func ehlo(_ name: String) async throws -> [String] {
        try await write("EHLO \(name)\r\n")
        let (code, texts) = try await reply()
        guard code == 250 else { throw SMTPError.rejected(command: "EHLO", code: code, text: texts.joined(separator: " ")) }
        return Array(texts.dropFirst())
    }

    mutating func authenticate(username: String, password: String, capabilities: [String]) async throws {
        let mechanisms = Set(
            capabilities.filter { $0.uppercased().hasPrefix("AUTH") }
                .flatMap { $0.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "=" }).map { $0.uppercased() } })
        if mechanisms.contains("PLAIN") {
            let token = Data("\u{0}\(username)\u{0}\(password)".utf8).base64EncodedString()
            try await command("AUTH PLAIN \(token)", name: "AUTH", expect: 235, log: false)
        } else if mechanisms.contains("LOGIN") {
            try await command("AUTH LOGIN", name: "AUTH", expect: 334)
            try await command(Data(username.utf8).base64EncodedString(), name: "AUTH", expect: 334, log: false)
            try await command(Data(password.utf8).base64EncodedString(), name: "AUTH", expect: 235, log: false)
        } else {
            throw SMTPError.noAuthMechanism
        }
    }
}
