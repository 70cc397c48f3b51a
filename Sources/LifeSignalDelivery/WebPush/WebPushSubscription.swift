import Foundation

/// A browser's push subscription, as `PushSubscription.toJSON()` gives it and as the channel's
/// address stores it: `{"endpoint":"https://…","keys":{"p256dh":"…","auth":"…"}}`.
public struct WebPushSubscription: Codable, Sendable, Hashable {
    /// The push service URL for this browser.
    public var endpoint: String
    public var keys: Keys

    public struct Keys: Codable, Sendable, Hashable {
        /// The browser's P-256 public key, uncompressed, base64url.
        public var p256dh: String
        /// The 16-byte authentication secret, base64url.
        public var auth: String

        public init(p256dh: String, auth: String) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public init(endpoint: String, keys: Keys) {
        self.endpoint = endpoint
        self.keys = keys
    }

    /// Parses the stored address; `nil` when it is not a subscription.
    public init?(json: String) {
        guard let value = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = value
    }
}
