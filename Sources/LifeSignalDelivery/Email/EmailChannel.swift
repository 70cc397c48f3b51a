import Foundation
import LifeSignalLanguage
import LifeSignalModels
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// E-mail over SMTP: the address is the recipient's e-mail address.
///
/// Each message is one SMTP transaction on its own connection (STARTTLS or implicit TLS, AUTH
/// PLAIN/LOGIN when credentials are configured). The subject is the title; the body is the text
/// and the link. Success is `.sent` with the Message-ID as provider id, for matching bounces.
/// 4xx replies and network trouble are transient; 5xx replies are permanent.
public struct EmailChannel: ChannelAdapter {
    /// Settings read once at start.
    public struct Configuration: Sendable {
        public var host: String
        /// 587 for STARTTLS, 465 for implicit TLS, 25 for a local relay.
        public var port: Int
        public var security: SMTPSecurity
        /// Both or neither; credentials are only sent after TLS unless `security` is `.none`.
        public var username: String?
        public var password: String?
        /// The envelope sender and `From` address, e.g. `alerts@lifesignal.example`.
        public var fromAddress: String
        /// The `From` display name.
        public var fromName: String?
        /// The name given in EHLO; defaults to the domain of `fromAddress`.
        public var heloName: String?
        /// Trust settings; the default verifies the server against the system's roots.
        /// Tests set a trust root of their own.
        public var tlsConfiguration: TLSConfiguration
        public var connectTimeout: Duration
        /// The whole transaction, connection included.
        public var timeout: Duration

        public init(
            host: String, port: Int = 587, security: SMTPSecurity = .startTLS, username: String? = nil,
            password: String? = nil, fromAddress: String, fromName: String? = "LifeSignal",
            heloName: String? = nil, tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            connectTimeout: Duration = .seconds(10), timeout: Duration = .seconds(30)
        ) {
            self.host = host
            self.port = port
            self.security = security
            self.username = username
            self.password = password
            self.fromAddress = fromAddress
            self.fromName = fromName
            self.heloName = heloName
            self.tlsConfiguration = tlsConfiguration
            self.connectTimeout = connectTimeout
            self.timeout = timeout
        }

        var domain: String {
            fromAddress.split(separator: "@").last.map(String.init) ?? "localhost"
        }
    }

    public let kind: ChannelKind = .email
    private let configuration: Configuration
    private let client: SMTPClient
    private let composer: EmailComposer
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// - Parameter now: the clock for the `Date` header.
    public init(
        configuration: Configuration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "lifesignal.delivery.email")
    ) {
        self.configuration = configuration
        self.now = now
        self.logger = logger
        self.composer = EmailComposer(
            fromAddress: configuration.fromAddress, fromName: configuration.fromName,
            messageIDDomain: configuration.domain)
        self.client = SMTPClient(
            server: .init(
                host: configuration.host, port: configuration.port, security: configuration.security,
                username: configuration.username, password: configuration.password,
                heloName: configuration.heloName ?? configuration.domain,
                tlsConfiguration: configuration.tlsConfiguration,
                connectTimeout: configuration.connectTimeout, timeout: configuration.timeout),
            eventLoopGroup: eventLoopGroup, logger: logger)
    }

    public func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        let address = message.address.trimmingCharacters(in: .whitespaces)
        guard Self.isPlausibleAddress(address) else {
            throw .permanent("The e-mail address is not valid.")
        }
        var text = message.body
        if let link = message.link { text += "\n\n" + link }
        // One Message-ID per delivery: a retry is the same message sent again.
        let composed = composer.compose(
            to: address, subject: message.title, body: text, date: now(),
            messageID: message.deliveryID.description, urgent: message.urgent,
            extraHeaders: [
                ("Content-Language", message.words.rendered.tag), ("X-LifeSignal-Delivery", message.deliveryID.description),
            ])
        do {
            let reply = try await client.send(
                .init(from: configuration.fromAddress, recipients: [address], data: composed.text))
            logger.debug("E-mail accepted", metadata: ["delivery": "\(message.deliveryID)", "reply": "\(reply)"])
            return .sent(providerID: composed.messageID)
        } catch {
            logger.warning(
                "E-mail not accepted",
                metadata: ["delivery": "\(message.deliveryID)", "error": "\(String(reflecting: error))"])
            throw error.deliveryFailure
        }
    }

    /// One `@`, something on each side, no spaces, brackets or line breaks that would break the envelope.
    static func isPlausibleAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasSuffix("."),
            address.utf8.count <= 254
        else { return false }
        return !address.contains { $0.isWhitespace || "<>()[],;:\\\"".contains($0) }
    }
}
