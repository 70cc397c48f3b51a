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
        func invalid(_ message: String) -> ValidationError { ValidationError(field: "address", message: message) }
        guard !Text.containsControlCharacters(address) else {
            throw invalid("The address must not contain line breaks or control characters.")
        }
        switch kind {
        case .inApp:
            throw invalid("The in-app channel is always on and needs no address.")
        case .sms, .voice:
            do { return try Validation.phone(address) } catch { throw invalid(error.message) }
        case .email:
            return try email(address)
        case .webhook:
            guard address.utf8.count <= urlLimit else { throw invalid("The webhook URL can be at most \(urlLimit) bytes.") }
            return try url(address, options: options, what: "webhook URL")
        case .ntfy:
            let topic = address.split(separator: "/").last.map(String.init) ?? ""
            guard (1...64).contains(topic.count),
                topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { throw invalid("Enter an ntfy topic of letters, digits, - and _.") }
            return topic
        case .webPush:
            return try webPushSubscription(address, options: options)
        case .apns:
            guard (64...200).contains(address.count), address.count.isMultiple(of: 2),
                address.allSatisfy({ $0.isASCII && $0.isHexDigit })
            else { throw invalid("That is not an Apple device token.") }
            return address.lowercased()
        case .log:
            guard address.count <= 100 else { throw invalid("A log channel name can be at most 100 characters.") }
            return address.isEmpty ? "log" : address
        }
    }

    /// One plain address: `local@domain.tld`, no display name, list, comment or quoting.
    static func email(_ address: String) throws(ValidationError) -> String {
        let message = "Enter one e-mail address like name@example.com."
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, address.utf8.count <= emailLimit else {
            throw ValidationError(field: "address", message: message)
        }
        let local = parts[0], domain = parts[1]
        let localAllowed = Set("!#$%&'*+-/=?^_`{|}~.")
        guard (1...64).contains(local.utf8.count), !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
            local.allSatisfy({ $0.isLetter || $0.isNumber || localAllowed.contains($0) })
        else { throw ValidationError(field: "address", message: message) }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.utf8.count <= 253,
            labels.allSatisfy({ label in
                (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
            }),
            let tld = labels.last, !tld.allSatisfy(\.isNumber)
        else { throw ValidationError(field: "address", message: message) }
        return address
    }

    /// An absolute `https://` URL (or `http://` when allowed) with a public-looking host and no
    /// user name or password in it.
    static func url(_ address: String, options: Options, what: String) throws(ValidationError) -> String {
        func invalid(_ message: String) -> ValidationError { ValidationError(field: "address", message: message) }
        guard !address.contains(where: { $0.isWhitespace }), let components = URLComponents(string: address),
            let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, URL(string: address)?.host != nil
        else { throw invalid("Enter a \(what) starting with https://.") }
        guard scheme == "https" || (scheme == "http" && options.allowHTTP) else {
            throw invalid("The \(what) must start with https://.")
        }
        guard components.user == nil, components.password == nil else {
            throw invalid("The \(what) must not contain a user name or password; put a token in the path or query.")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw invalid("The \(what) has an invalid port.")
        }
        if !options.allowPrivateHosts, let reason = NetworkHost.privateReason(host) {
            throw invalid("The \(what) must point to a public internet address; its host \(reason).")
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
        let notASubscription = ValidationError(field: "address", message: "That is not a Web Push subscription.")
        guard address.utf8.count <= webPushLimit,
            let subscription = try? JSONDecoder().decode(Subscription.self, from: Data(address.utf8)),
            base64URLByteCount(subscription.keys.p256dh) == 65, base64URLByteCount(subscription.keys.auth) == 16
        else { throw notASubscription }
        _ = try url(subscription.endpoint, options: options, what: "push endpoint")
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
