import Foundation
import LifeSignalModels

/// Checks and normalises the address of a channel a person registers, per kind.
///
/// Nothing here resolves names: a URL whose host is plainly private (an IP literal in any form,
/// `localhost`, `*.local`, `*.internal`…) is refused now; a name that resolves inward is refused
/// by the delivery when it connects.
public enum ChannelAddress {
    public static let emailLimit = 254
    public static let urlLimit = 2048
    public static let webPushLimit = 4096

    /// Which relaxations apply. Both are for tests against fakes on 127.0.0.1 only.
    public struct Options: Sendable, Hashable {
        /// Accept `http://` as well as `https://` URLs.
        public var allowHTTP: Bool
        /// Accept hosts on loopback, private and link-local networks.
        public var allowPrivateHosts: Bool

        public init(allowHTTP: Bool = false, allowPrivateHosts: Bool = false) {
            self.allowHTTP = allowHTTP
            self.allowPrivateHosts = allowPrivateHosts
        }

        public static let production = Options()
        /// Fakes on 127.0.0.1 over plain HTTP.
        public static let localTesting = Options(allowHTTP: true, allowPrivateHosts: true)
    }

    /// The address to store for `kind`, or the reason it is refused (field `address`).
    public static func validated(
        _ kind: ChannelKind, _ raw: String, options: Options = .production
    ) throws(ValidationError) -> String {
        let address = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        func invalid(_ key: String, _ arguments: [String: String] = [:]) -> ValidationError {
            ValidationError(field: "address", key: key, arguments)
        }
        guard !Text.containsControlCharacters(address) else {
            throw invalid("validation.address.control")
        }
        switch kind {
        case .inApp:
            throw invalid("validation.address.inApp")
        case .sms, .voice:
            do {
                return try Validation.phone(address)
            } catch {
                var refusal = error
                refusal.field = "address"
                throw refusal
            }
        case .email:
            return try email(address)
        case .webhook:
            guard address.utf8.count <= urlLimit else { throw invalid("validation.address.webhookLength", ["limit": String(urlLimit)]) }
            return try url(address, options: options, of: .webhook)
        case .ntfy:
            let topic = address.split(separator: "/").last.map(String.init) ?? ""
            guard (1...64).contains(topic.count),
                topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { throw invalid("validation.address.ntfy") }
            return topic
        case .webPush:
            return try webPushSubscription(address, options: options)
        case .apns:
            guard (64...200).contains(address.count), address.count.isMultiple(of: 2),
                address.allSatisfy({ $0.isASCII && $0.isHexDigit })
            else { throw invalid("validation.address.apns") }
            return address.lowercased()
        case .log:
            guard address.count <= 100 else { throw invalid("validation.address.logLength") }
            return address.isEmpty ? "log" : address
        }
    }

    /// One plain address: `local@domain.tld`, no display name, list, comment or quoting.
    static func email(_ address: String) throws(ValidationError) -> String {
        let refusal = ValidationError(field: "address", key: "validation.address.email")
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, address.utf8.count <= emailLimit else {
            throw refusal
        }
        let local = parts[0], domain = parts[1]
        let localAllowed = Set("!#$%&'*+-/=?^_`{|}~.")
        guard (1...64).contains(local.utf8.count), !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
            local.allSatisfy({ $0.isLetter || $0.isNumber || localAllowed.contains($0) })
        else { throw refusal }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.utf8.count <= 253,
            labels.allSatisfy({ label in
                (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }),
            let tld = labels.last, !tld.allSatisfy(\.isNumber)
        else { throw refusal }
        return address
    }

    /// Whose URL is checked: a person's webhook, or the push service a browser subscribed with.
    enum URLRole {
        case webhook, pushEndpoint
    }

    /// An absolute `https://` URL (or `http://` when allowed) with a public-looking host and no
    /// user name or password in it.
    static func url(_ address: String, options: Options, of role: URLRole) throws(ValidationError) -> String {
        func invalid(webhook: String, push: String) -> ValidationError {
            ValidationError(field: "address", key: role == .webhook ? webhook : push)
        }
        guard !address.contains(where: { $0.isWhitespace }), let components = URLComponents(string: address),
            let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, URL(string: address)?.host != nil
        else { throw invalid(webhook: "validation.webhook.start", push: "validation.pushEndpoint.start") }
        guard scheme == "https" || (scheme == "http" && options.allowHTTP) else {
            throw invalid(webhook: "validation.webhook.https", push: "validation.pushEndpoint.https")
        }
        guard components.user == nil, components.password == nil else {
            throw invalid(webhook: "validation.webhook.credentials", push: "validation.pushEndpoint.credentials")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw invalid(webhook: "validation.webhook.port", push: "validation.pushEndpoint.port")
        }
        if !options.allowPrivateHosts, let reason = NetworkHost.privateReason(host) {
            // The reason (English, for whoever set the address up) stays in the English message;
            // other languages say the rule without it.
            var refusal = invalid(webhook: "validation.webhook.private", push: "validation.pushEndpoint.private")
            let what = role == .webhook ? "webhook URL" : "push endpoint"
            refusal.message = "The \(what) must point to a public internet address; its host \(reason)."
            throw refusal
        }
        return address
    }

    /// A Web Push subscription as the browser gives it: `{"endpoint","keys":{"p256dh","auth"}}`.
    static func webPushSubscription(_ address: String, options: Options) throws(ValidationError) -> String {
        struct Subscription: Decodable {
            struct Keys: Decodable { var p256dh: String; var auth: String }
            var endpoint: String
            var keys: Keys
        }
        let notASubscription = ValidationError(field: "address", key: "validation.address.webPush")
        guard address.utf8.count <= webPushLimit,
            let subscription = try? JSONDecoder().decode(Subscription.self, from: Data(address.utf8)),
            base64URLByteCount(subscription.keys.p256dh) == 65, base64URLByteCount(subscription.keys.auth) == 16
        else { throw notASubscription }
        _ = try url(subscription.endpoint, options: options, of: .pushEndpoint)
        return address
    }

    /// The decoded length of unpadded base64url text, nil when it is not base64url.
    static func base64URLByteCount(_ text: String) -> Int? {
        let trimmed = text.hasSuffix("=") ? String(text.prefix(while: { $0 != "=" })) : text
        guard trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
            trimmed.count % 4 != 1
        else { return nil }
        return trimmed.count * 3 / 4
    }
}
