import AsyncHTTPClient
import Foundation
import LifeSignalModels
import Logging
import NIOCore

/// Web Push (RFC 8030) to a browser: the address is the subscription JSON.
///
/// The payload is encrypted for the browser (RFC 8291) and the request identified with VAPID
/// (RFC 8292). It carries JSON for the service worker:
/// `{"title","body","kind","urgent","link","notification_id","delivery_id"}`.
/// 201 is `.sent` with the push service's `Location` as provider id; 404/410 mean the browser
/// dropped the subscription (permanent); 429 and 5xx are transient.
public struct WebPushChannel: ChannelAdapter {
    /// Settings read once at start.
    public struct Configuration: Sendable {
        /// The VAPID private key: raw 32-byte scalar in base64url, or a PEM.
        public var vapidPrivateKey: String
        /// Contact for push service operators, `mailto:ops@lifesignal.example`.
        public var vapidSubject: String
        /// How long the push service may hold a message for an offline browser.
        public var timeToLive: Duration
        /// TTL for urgent alerts: stale alarms are worse than none, so this is shorter.
        public var urgentTimeToLive: Duration
        public var timeout: Duration
        /// Whether push endpoints on loopback or private addresses are allowed (tests only):
        /// the endpoint comes from the browser, so it must not reach the server's own network.
        public var allowPrivateNetworks: Bool
        /// How endpoint host names are looked up before they are checked and connected to.
        public var resolver: HostResolver

        public init(
            vapidPrivateKey: String, vapidSubject: String, timeToLive: Duration = .seconds(24 * 3600),
            urgentTimeToLive: Duration = .seconds(3600), timeout: Duration = .seconds(10),
            allowPrivateNetworks: Bool = false, resolver: HostResolver = .system
        ) {
            self.allowPrivateNetworks = allowPrivateNetworks
            self.resolver = resolver
            self.vapidPrivateKey = vapidPrivateKey
            self.vapidSubject = vapidSubject
            self.timeToLive = timeToLive
            self.urgentTimeToLive = urgentTimeToLive
            self.timeout = timeout
        }
    }

    public let kind: ChannelKind = .webPush
    private let configuration: Configuration
    private let vapid: VAPID
    private let http: HTTPDelivery
    private let now: @Sendable () -> Date

    /// Throws when the VAPID key cannot be read.
    public init(
        configuration: Configuration, httpClient: HTTPClient, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "lifesignal.delivery.webpush")
    ) throws {
        self.configuration = configuration
        self.vapid = try VAPID(privateKey: configuration.vapidPrivateKey, subject: configuration.vapidSubject)
        self.http = HTTPDelivery(
            client: httpClient, timeout: configuration.timeout, providerName: "The push service", logger: logger,
            egress: .init(allowPrivateNetworks: configuration.allowPrivateNetworks, resolver: configuration.resolver))
        self.now = now
    }

    /// The public key browsers pass as `applicationServerKey` when subscribing.
    public var vapidPublicKey: String { vapid.publicKey }

    public func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        guard let subscription = WebPushSubscription(json: message.address),
            let endpoint = URL(string: subscription.endpoint),
            let scheme = endpoint.scheme?.lowercased(), scheme == "https" || scheme == "http",
            endpoint.user == nil, endpoint.password == nil,
            let userAgentKey = Data(base64URLEncoded: subscription.keys.p256dh),
            let authSecret = Data(base64URLEncoded: subscription.keys.auth)
        else { throw .permanent("The push subscription is not valid.") }

        let body: Data
        let authorization: String
        do {
            body = try WebPushEncryption.encrypt(
                Self.payload(message), userAgentPublicKey: userAgentKey, authSecret: authSecret)
            authorization = try vapid.authorization(endpoint: endpoint, now: now())
        } catch {
            throw .permanent("The push subscription is not valid.")
        }

        var request = HTTPClientRequest(url: subscription.endpoint)
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        let ttl = message.urgent ? configuration.urgentTimeToLive : configuration.timeToLive
        request.headers.add(name: "TTL", value: "\(ttl.components.seconds)")
        request.headers.add(name: "Urgency", value: message.urgent ? "high" : "normal")
        // RFC 8030 topic (32 URL-safe characters): the push service keeps one pending copy per
        // delivery, so a resend replaces rather than repeats.
        request.headers.add(name: "Topic", value: Self.topic(for: message.deliveryID))
        request.body = .bytes(ByteBuffer(bytes: body))

        let response = try await http.execute(request)
        switch response.status {
        case 200..<300:
            return .sent(providerID: response.header("Location"))
        case 404, 410:
            throw .permanent("The push subscription has expired.")
        case 413:
            throw .permanent("The message is too large for Web Push.")
        case 401, 403:
            throw .permanent("The push service did not accept our server key.")
        default:
            throw HTTPDelivery.classify(status: response.status, providerName: "The push service")
                ?? .transient("The push service gave an unexpected answer.")
        }
    }

    /// What the service worker receives; the body is shortened so everything fits one record
    /// that push services accept (4096 bytes including the 86-byte header).
    static func payload(_ message: OutgoingMessage) -> Data {
        let limit = WebPushEncryption.recordSize - WebPushEncryption.headerSize - 16 - 1
        var body = message.body
        var shortened = false
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        while true {
            let payload = Payload(
                title: message.title, body: shortened ? body + "…" : body, kind: message.kind.rawValue,
                urgent: message.urgent, link: message.link, notification_id: message.notificationID.description,
                delivery_id: message.deliveryID.description)
            let data = (try? encoder.encode(payload)) ?? Data()
            if data.count <= limit || body.isEmpty { return data }
            // Characters take 1–4 bytes (JSON escapes up to 6): drop at least a quarter of the excess.
            body = String(body.dropLast(max(1, (data.count - limit) / 4)))
            shortened = true
        }
    }

    struct Payload: Encodable {
        var title: String
        var body: String
        var kind: String
        var urgent: Bool
        var link: String?
        var notification_id: String
        var delivery_id: String
    }

    /// The delivery id's 32 hex digits: within RFC 8030's 32 characters of the URL-safe alphabet.
    static func topic(for id: DeliveryID) -> String {
        id.description.replacingOccurrences(of: "-", with: "")
    }
}
