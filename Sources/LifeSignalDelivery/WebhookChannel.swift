import AsyncHTTPClient
import Foundation
import LifeSignalModels
import Logging
import NIOCore

/// Signed JSON POST to a URL the person registered (their own automation, a home-alarm hub…).
///
/// The address is the endpoint URL. Every call carries ``WebhookSignature`` so the receiver
/// can tell it came from this server. 2xx means the endpoint has the message: `.delivered`
/// (202 Accepted: `.sent`); 5xx, 408, 429 and network errors are transient; other 4xx permanent.
public struct WebhookChannel: ChannelAdapter {
    /// Settings read once at start.
    public struct Configuration: Sendable {
        /// The signing secret used for every endpoint without its own.
        public var secret: String
        /// Secrets for particular endpoint URLs, keyed by the exact address.
        public var endpointSecrets: [String: String]
        /// How long one call may take, connection included: short, because the URL is a person's
        /// own and may be slow on purpose (the worker's lanes bound what a slow one can hold up).
        public var timeout: Duration
        public var userAgent: String
        /// Whether endpoints on loopback, private or link-local addresses are allowed. Off in
        /// production so a registered URL cannot probe the server's own network; tests against
        /// fakes on 127.0.0.1 turn it on.
        public var allowPrivateNetworks: Bool
        /// How endpoint host names are looked up before they are checked and connected to.
        public var resolver: HostResolver
        /// Whether calls to the same endpoint (name and checked address) reuse its connections;
        /// false opens one connection per call (kept for the benchmark's comparison).
        public var reuseConnections: Bool

        public init(
            secret: String, endpointSecrets: [String: String] = [:], timeout: Duration = .seconds(5),
            userAgent: String = "LifeSignal-Webhook/1", allowPrivateNetworks: Bool = false,
            resolver: HostResolver = .system, reuseConnections: Bool = true
        ) {
            self.secret = secret
            self.endpointSecrets = endpointSecrets
            self.timeout = timeout
            self.userAgent = userAgent
            self.allowPrivateNetworks = allowPrivateNetworks
            self.resolver = resolver
            self.reuseConnections = reuseConnections
        }
    }

    public let kind: ChannelKind = .webhook
    private let configuration: Configuration
    private let http: HTTPDelivery
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - httpClient: shared client; its owner shuts it down.
    ///   - now: the clock for the signature's timestamp.
    public init(
        configuration: Configuration, httpClient: HTTPClient,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "lifesignal.delivery.webhook")
    ) {
        self.configuration = configuration
        self.http = HTTPDelivery(
            client: httpClient, timeout: configuration.timeout, providerName: "The webhook endpoint",
            logger: logger,
            egress: .init(
                allowPrivateNetworks: configuration.allowPrivateNetworks, resolver: configuration.resolver,
                reuseConnections: configuration.reuseConnections))
        self.now = now
    }

    public func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        guard let url = URL(string: message.address), let scheme = url.scheme?.lowercased(),
            url.user == nil, url.password == nil,
            scheme == "https" || scheme == "http", url.host != nil
        else { throw .permanent("The webhook address is not a valid http(s) URL.") }

        let sentAt = now()
        let body: Data
        do {
            body = try WebhookPayload.encoder.encode(WebhookPayload(message, sentAt: sentAt))
        } catch {
            throw .permanent("The message could not be encoded.")
        }
        // The channel's own secret (shown once to its owner when registered), else an operator's
        // per-endpoint secret, else the server's: channels registered before per-channel secrets.
        let secret = message.signingSecret ?? configuration.endpointSecrets[message.address] ?? configuration.secret

        var request = HTTPClientRequest(url: message.address)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "LifeSignal-Delivery", value: message.deliveryID.description)
        // The same key on every attempt of this delivery: a receiver drops a second copy (a retry
        // after a timeout, or a resend after a crash between sending and recording).
        request.headers.add(name: "Idempotency-Key", value: message.deliveryID.description)
        request.headers.add(
            name: WebhookSignature.headerName,
            value: WebhookSignature.sign(body: body, secret: secret, timestamp: sentAt))
        request.body = .bytes(ByteBuffer(bytes: body))

        let response = try await http.execute(request)
        if let failure = HTTPDelivery.classify(status: response.status, providerName: "The webhook endpoint") {
            throw failure
        }
        return response.status == 202
            ? .sent(providerID: message.deliveryID.description)
            : .delivered(providerID: message.deliveryID.description)
    }
}
