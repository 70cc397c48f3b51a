import Foundation
import HTTPTypes
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as its bytes (4 or 16). An IPv4-mapped IPv6 address
/// (`::ffff:192.0.2.1`) is the IPv4 address it maps, so one client has one form.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            let all = withUnsafeBytes(of: &v6) { Array($0) }
            bytes = all[0..<12] == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] ? Array(all[12...]) : all
        } else {
            return nil
        }
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    public var isIPv4: Bool { bytes.count == 4 }

    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var copy = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        guard inet_ntop(family, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(cString: buffer)
    }

    /// The first `prefix` bits, the rest zero.
    func masked(to prefix: Int) -> IPAddress {
        IPAddress(
            bytes: bytes.enumerated().map { index, byte in
                let kept = max(0, min(8, prefix - index * 8))
                return kept == 8 ? byte : byte & ~(UInt8(0xff) >> kept)
            })
    }
}

/// A CIDR block: `10.0.0.0/8`, `2001:db8::/32`; a bare address is a block of one.
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    public let address: IPAddress
    public let prefix: Int

    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...bits).contains(prefix), parts[1].allSatisfy(\.isNumber) else { return nil }
            self.prefix = prefix
        } else {
            self.prefix = bits
        }
        self.address = address.masked(to: prefix)
    }

    public func contains(_ other: IPAddress) -> Bool {
        other.bytes.count == address.bytes.count && other.masked(to: prefix) == address
    }

    public var description: String { "\(address)/\(prefix)" }

    /// A comma-separated list, as `--trusted-proxies` takes it; nil names the first bad entry.
    public static func list(_ text: String) -> Result<[IPNetwork], ConfigurationError> {
        var networks: [IPNetwork] = []
        for part in text.split(separator: ",") where !part.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let network = IPNetwork(String(part)) else {
                return .failure(
                    ConfigurationError(
                        "trusted proxies: \"\(part.trimmingCharacters(in: .whitespaces))\" is not an IP address or CIDR block"))
            }
            networks.append(network)
        }
        return .success(networks)
    }
}

/// Which address a request counts against in rate limits.
///
/// The TCP peer, unless the peer is one of the trusted proxies: then the address the proxies
/// recorded, from `Forwarded` (RFC 7239 `for=`) or else `X-Forwarded-For`, read from the right
/// and skipping addresses that are themselves trusted proxies. Anything left of an entry that
/// can't be read is not believed (the nearest address known is used instead), so a client can
/// put whatever it likes in those headers without choosing its own key. IPv6 clients count
/// per /64, the block one household or one server usually gets.
public struct ClientAddressResolver: Sendable, Hashable {
    public var trustedProxies: [IPNetwork]

    public init(trustedProxies: [IPNetwork] = []) {
        self.trustedProxies = trustedProxies
    }

    /// The rate-limit key for a request from `peer` carrying these header values (each
    /// array holds every occurrence of the header, in order).
    public func clientKey(peer: String?, forwarded: [String] = [], xForwardedFor: [String] = []) -> String {
        guard let peerText = peer, let peer = IPAddress(peerText) else { return peer ?? "local" }
        guard isTrusted(peer) else { return Self.key(peer) }
        let chain = Self.forwardedFor(forwarded) ?? Self.xForwardedFor(xForwardedFor)
        var nearest = peer
        for entry in chain.reversed() {
            guard let address = entry.flatMap(Self.node) else { break }
            guard isTrusted(address) else { return Self.key(address) }
            nearest = address
        }
        return Self.key(nearest)
    }

    func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// IPv4 as it is; IPv6 as its /64 block (`2001:db8:1:2::/64`).
    public static func key(_ address: IPAddress) -> String {
        address.isIPv4 ? address.description : "\(address.masked(to: 64))/64"
    }

    /// The `for=` values of every `Forwarded` element, in order (nil for an element without
    /// one, which breaks the chain); nil when no `Forwarded` header was sent.
    static func forwardedFor(_ headers: [String]) -> [String?]? {
        guard !headers.isEmpty else { return nil }
        var chain: [String?] = []
        for header in headers {
            for element in splitOutsideQuotes(header, on: ",") {
                let pairs = splitOutsideQuotes(element, on: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                let value = pairs.first { $0.lowercased().hasPrefix("for=") }.map { String($0.dropFirst(4)) }
                chain.append(value)
            }
        }
        return chain
    }

    static func xForwardedFor(_ headers: [String]) -> [String?] {
        headers.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    /// A node as proxies write it: `192.0.2.1`, `192.0.2.1:4711`, `"[2001:db8::1]:4711"`,
    /// `2001:db8::1`. `unknown` and obfuscated names (`_hidden`) are not addresses.
    static func node(_ raw: String) -> IPAddress? {
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1)
            else { return nil }
            let inner = String(text[text.index(after: text.startIndex)..<close])
            guard let address = IPAddress(inner), inner.contains(":") else { return nil }
            return address
        }
        if let address = IPAddress(text) { return address }
        // IPv4 with a port.
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber), let address = IPAddress(String(parts[0])),
            address.isIPv4
        else { return nil }
        return address
    }

    private static func splitOutsideQuotes(_ text: String, on separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }
}

/// Sets each request's `clientAddress` from the forwarding headers when it came through a
/// trusted proxy (see `ClientAddressResolver`).
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let resolver: ClientAddressResolver

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.clientAddress = resolver.clientKey(
            peer: context.peerAddress,
            forwarded: request.headers[values: .forwarded],
            xForwardedFor: request.headers[values: .xForwardedFor])
        // "The browser used https" is believed only from a proxy we trust, like the address.
        if let peer = context.peerAddress.flatMap(IPAddress.init), resolver.isTrusted(peer) {
            context.forwardedHTTPS = request.headers[.xForwardedProto]?.lowercased() == "https"
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let forwarded = Self("Forwarded")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
