import AsyncHTTPClient
import Foundation
import LifeSignalModels
import Logging
import NIOCore
import NIOSSL

/// Apple Push Notification service over HTTP/2 with token authentication: the address is the
/// device token (hex) the iOS app registered.
///
/// Posts `{"aps":{"alert":{"title","body"},"sound":"default"}}` (plus `kind`, `link` and ids for
/// the app) to `{base}/3/device/{token}`. 200 is `.sent` with `apns-id` as provider id;
/// BadDeviceToken, Unregistered (410) and DeviceTokenNotForTopic are permanent; 429 and 5xx
/// are transient.
public struct APNsChannel: ChannelAdapter {
    /// Settings read once at start.
    public struct Configuration: Sendable {
        /// `https://api.push.apple.com` (production) or `https://api.sandbox.push.apple.com`.
        public var baseURL: String
        /// The Apple developer team id, the token's `iss`.
        public var teamID: String
        /// The id of the signing key, the token's `kid`.
        public var keyID: String
        /// The `.p8` signing key's PEM text.
        public var privateKey: String
        /// The app's bundle id, sent as `apns-topic`.
        public var topic: String
        /// How long one provider token is reused (20–50 minutes).
        public var tokenLifetime: Duration
        /// How long APNs keeps trying an offline device; `nil` tries once.
        public var expiration: Duration?
        public var timeout: Duration
        /// TLS for the connection to APNs; `nil` uses the HTTP client's (system trust). Tests set
        /// a trust root for their local fake here.
        public var tlsConfiguration: TLSConfiguration?

        public init(
            baseURL: String = "https://api.push.apple.com", teamID: String, keyID: String, privateKey: String,
            topic: String, tokenLifetime: Duration = .seconds(50 * 60), expiration: Duration? = .seconds(3600),
            timeout: Duration = .seconds(10), tlsConfiguration: TLSConfiguration? = nil
        ) {
            self.baseURL = baseURL
            self.teamID = teamID
            self.keyID = keyID
            self.privateKey = privateKey
            self.topic = topic
            self.tokenLifetime = tokenLifetime
            self.expiration = expiration
            self.timeout = timeout
            self.tlsConfiguration = tlsConfiguration
        }
    }

    public let kind: ChannelKind = .apns
    private let configuration: Configuration
    private let tokens: APNsTokenProvider
    private let http: HTTPDelivery
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// Throws when the signing key cannot be read.
    /// - Parameter httpClient: must allow HTTP/2 (the default `httpVersion: .automatic` does).
    public init(
        configuration: Configuration, httpClient: HTTPClient, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "lifesignal.delivery.apns")
    ) throws {
        self.configuration = configuration
        self.tokens = try APNsTokenProvider(
            privateKey: configuration.privateKey, keyID: configuration.keyID, teamID: configuration.teamID,
            lifetime: configuration.tokenLifetime.seconds)
        self.http = HTTPDelivery(
            client: httpClient, timeout: configuration.timeout, providerName: "Apple's push service", logger: logger)
        self.now = now
        self.logger = logger
    }

    public func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
        let deviceToken = message.address.trimmingCharacters(in: .whitespaces).lowercased()
        guard (32...200).contains(deviceToken.count), deviceToken.allSatisfy(\.isHexDigit) else {
            throw .permanent("The device token is not valid.")
        }
        let token: String
        do {
            token = try await tokens.token(now: now())
        } catch {
            throw .permanent("The Apple push key could not be used.")
        }
        let body: Data
        do {
            body = try Self.payload(message)
        } catch {
            throw .permanent("The message could not be encoded.")
        }

        let base = configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL
        var request = HTTPClientRequest(url: "\(base)/3/device/\(deviceToken)")
        request.method = .POST
        request.tlsConfiguration = configuration.tlsConfiguration
        request.headers.add(name: "authorization", value: "bearer \(token)")
        request.headers.add(name: "apns-topic", value: configuration.topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: message.urgent ? "10" : "5")
        request.headers.add(name: "apns-id", value: message.deliveryID.description)
        // A second copy of the same delivery replaces the first on the device instead of showing twice.
        request.headers.add(name: "apns-collapse-id", value: message.deliveryID.description)
        if let expiration = configuration.expiration {
            let expiry = Int(now().timeIntervalSince1970 + expiration.seconds)
            request.headers.add(name: "apns-expiration", value: "\(expiry)")
        }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))

        let response = try await http.execute(request)
        if response.status == 200 {
            return .sent(providerID: response.header("apns-id") ?? message.deliveryID.description)
        }
        let reason = response.json(ErrorBody.self)?.reason ?? ""
        logger.warning("APNs refused a push", metadata: ["status": "\(response.status)", "reason": "\(reason)"])
        switch (response.status, reason) {
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"):
            throw .permanent("The device is no longer registered for notifications.")
        case (403, "ExpiredProviderToken"):
            await tokens.invalidate()
            throw .transient("Apple's push service asked for a fresh sign-in; it will be tried again.")
        case (403, _):
            await tokens.invalidate()
            throw .permanent("Apple's push service did not accept our credentials.")
        case (413, _):
            throw .permanent("The message is too large for Apple push.")
        default:
            throw HTTPDelivery.classify(status: response.status, providerName: "Apple's push service")
                ?? .transient("Apple's push service gave an unexpected answer.")
        }
    }

    static func payload(_ message: OutgoingMessage) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(
            Payload(
                aps: .init(
                    alert: .init(title: message.title, body: message.body), sound: "default",
                    interruptionLevel: message.urgent ? "time-sensitive" : nil),
                kind: message.kind.rawValue, link: message.link,
                notificationID: message.notificationID.description, deliveryID: message.deliveryID.description))
    }

    struct Payload: Encodable {
        var aps: APS
        var kind: String
        var link: String?
        var notificationID: String
        var deliveryID: String

        struct APS: Encodable {
            var alert: Alert
            var sound: String
            var interruptionLevel: String?

            enum CodingKeys: String, CodingKey {
                case alert, sound
                case interruptionLevel = "interruption-level"
            }
        }

        struct Alert: Encodable {
            var title: String
            var body: String
        }

        enum CodingKeys: String, CodingKey {
            case aps, kind, link
            case notificationID = "notification_id"
            case deliveryID = "delivery_id"
        }
    }

    private struct ErrorBody: Decodable { var reason: String }
}
