import Foundation
import LifeSignalDelivery
import LifeSignalModels
import NIOSSL
import Testing

@Suite(.serialized) struct EmailChannelTests {
    static let body = """
        Alice has not checked in since 08:00.
        .This line starts with a dot
        .
        ..and this one with two
        Zoë says: café ☕️ — a line long enough that quoted-printable has to break it softly somewhere in the middle of it.
        Trailing space here\u{20}
        """

    func configuration(
        port: Int, security: SMTPSecurity = .none, username: String? = nil, password: String? = nil,
        trust certificate: SelfSignedCertificate? = nil
    ) throws -> EmailChannel.Configuration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let certificate {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate.certificatePath))
        }
        return .init(
            host: "127.0.0.1", port: port, security: security, username: username, password: password,
            fromAddress: "alerts@lifesignal.example", fromName: "LifeSignal", tlsConfiguration: tls,
            timeout: .seconds(10))
    }

    @Test func deliversAWellFormedUTF8MessageToARealSMTPServer() async throws {
        let sink = try await SMTPSink.start(mode: .plain)
        let channel = EmailChannel(configuration: try configuration(port: sink.port), now: { fixedNow })
        let title = "Alice hasn’t checked in — please call her now, she usually answers within minutes 📞"
        let message = OutgoingMessage.fixture(channel: .email, address: "bob@example.org", title: title, body: Self.body)

        let receipt = try await channel.send(message)

        let received = try #require(try sink.messages().first)
        #expect(receipt.status == .sent)
        #expect(received.message_id == receipt.providerID)
        #expect(received.message_id == "<00000000-0000-0000-0000-0000000000d1@lifesignal.example>")
        #expect(received.mail_from == "alerts@lifesignal.example")
        #expect(received.rcpt_tos == ["bob@example.org"])
        #expect(received.from == "LifeSignal <alerts@lifesignal.example>")
        #expect(received.to == "bob@example.org")
        #expect(received.subject == title)
        #expect(received.date == "Tue, 03 Mar 2026 09:12:00 +0000")
        #expect(received.content_type == "text/plain")
        #expect(received.charset == "utf-8")
        #expect(received.transfer_encoding == "quoted-printable")
        let text = received.body?.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(text == Self.body + "\n\nhttps://lifesignal.example/incidents/1\n")
        // The wire format itself: every line within RFC 5322's limits, no bare LF.
        for line in received.raw.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 78, "line too long: \(line)")
            #expect(!line.contains("\n"))
        }
        #expect(received.raw.contains("Importance: high"))
    }

    /// An e-mail says which language it is in: the recipient's (English when unknown).
    @Test func marksTheRecipientsLanguage() async throws {
        let sink = try await SMTPSink.start(mode: .plain)
        let channel = EmailChannel(configuration: try configuration(port: sink.port), now: { fixedNow })
        var german = OutgoingMessage.fixture(channel: .email, address: "bob@example.org", title: "Ada braucht Hilfe")
        german.language = "de-AT"
        _ = try await channel.send(german)
        _ = try await channel.send(.fixture(channel: .email, address: "cy@example.org"))
        let received = try sink.messages()
        #expect(received.count == 2)
        #expect(received.first { $0.to == "bob@example.org" }?.raw.contains("\r\nContent-Language: de-AT\r\n") == true)
        #expect(received.first { $0.to == "cy@example.org" }?.raw.contains("\r\nContent-Language: en\r\n") == true)
    }

    @Test func upgradesWithSTARTTLSAndSignsIn() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await SelfSignedCertificate.make(in: directory)
        let sink = try await SMTPSink.start(mode: .starttls, username: "mailer", password: "hunter2", certificate: certificate)

        let channel = EmailChannel(
            configuration: try configuration(
                port: sink.port, security: .startTLS, username: "mailer", password: "hunter2", trust: certificate))
        _ = try await channel.send(.fixture(channel: .email, address: "bob@example.org"))

        let received = try #require(try sink.messages().first)
        #expect(received.tls)
        #expect(received.authenticated)
        #expect(received.subject == "Alice missed her check-in")

        let wrongPassword = EmailChannel(
            configuration: try configuration(
                port: sink.port, security: .startTLS, username: "mailer", password: "wrong", trust: certificate))
        await #expect(throws: DeliveryFailure.permanent("The mail server refused our credentials.")) {
            try await wrongPassword.send(.fixture(channel: .email, address: "bob@example.org"))
        }
        // Without trusting the test certificate, the system roots reject it: no plain-text fallback.
        let untrusting = EmailChannel(
            configuration: try configuration(
                port: sink.port, security: .startTLS, username: "mailer", password: "hunter2"))
        await #expect(throws: DeliveryFailure.permanent("A secure connection to the mail server could not be made.")) {
            try await untrusting.send(.fixture(channel: .email, address: "bob@example.org"))
        }
        #expect(try sink.messages().count == 1)
    }

    @Test func speaksImplicitTLS() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await SelfSignedCertificate.make(in: directory)
        let sink = try await SMTPSink.start(mode: .tls, username: "mailer", password: "hunter2", certificate: certificate)

        let channel = EmailChannel(
            configuration: try configuration(
                port: sink.port, security: .implicitTLS, username: "mailer", password: "hunter2", trust: certificate))
        _ = try await channel.send(.fixture(channel: .email, address: "bob@example.org"))

        let received = try #require(try sink.messages().first)
        #expect(received.authenticated)
        #expect(received.raw.contains("Alice has not checked in"))
    }

    @Test func refusingAServerThatDoesNotOfferSTARTTLS() async throws {
        let sink = try await SMTPSink.start(mode: .plain)
        let channel = EmailChannel(configuration: try configuration(port: sink.port, security: .startTLS))
        await #expect(throws: DeliveryFailure.permanent("A secure connection to the mail server could not be made.")) {
            try await channel.send(.fixture(channel: .email, address: "bob@example.org"))
        }
        #expect(try sink.messages().isEmpty)
    }

    @Test func recipientRejectionsArePermanentAndTemporaryOnesTransient() async throws {
        let sink = try await SMTPSink.start(mode: .plain)
        let channel = EmailChannel(configuration: try configuration(port: sink.port))
        await #expect(throws: DeliveryFailure.permanent("The mail server refused the e-mail address.")) {
            try await channel.send(.fixture(channel: .email, address: "nobody@example.org"))
        }
        await #expect(throws: DeliveryFailure.transient("The mail server is busy; it will be tried again.")) {
            try await channel.send(.fixture(channel: .email, address: "busy@example.org"))
        }
        #expect(try sink.messages().isEmpty)
    }

    @Test func unreachableAndSilentServersAreTransient() async throws {
        let refused = EmailChannel(configuration: try configuration(port: try unusedLocalPort()))
        await #expect(throws: DeliveryFailure.transient("The mail server could not be reached.")) {
            try await refused.send(.fixture(channel: .email, address: "bob@example.org"))
        }

        // A socket that listens but never greets: the kernel accepts the connection, nobody speaks.
        let (fd, port) = try silentListener()
        defer { close(fd) }
        var silent = try configuration(port: port)
        silent.timeout = .milliseconds(300)
        await #expect(throws: DeliveryFailure.transient("The mail server did not answer in time.")) {
            try await EmailChannel(configuration: silent).send(.fixture(channel: .email, address: "bob@example.org"))
        }
    }

    @Test(arguments: ["not-an-address", "a b@example.org", "bob@localhost", "<bob@example.org>", "bob@example.org\r\nRCPT TO:<x@y.z>"])
    func rejectsAddressesThatWouldBreakTheEnvelope(address: String) async throws {
        let channel = EmailChannel(configuration: try configuration(port: 9))
        do {
            _ = try await channel.send(.fixture(channel: .email, address: address))
            Issue.record("expected a permanent failure")
        } catch {
            #expect(!error.isTransient)
            #expect(error.reason == "The e-mail address is not valid.")
        }
    }

    func silentListener() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard listen(fd, 4) == 0 else { throw FakeServerError("listen() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
