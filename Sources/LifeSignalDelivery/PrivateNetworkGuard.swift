import Foundation
import LifeSignalRules
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Looks a host name up: every address it resolves to. The guard's only view of DNS, so tests
/// can point a name anywhere.
public struct HostResolver: Sendable {
    public var resolve: @Sendable (_ host: String) async throws -> [IPAddress]

    public init(resolve: @escaping @Sendable (_ host: String) async throws -> [IPAddress]) {
        self.resolve = resolve
    }

    /// The system's resolver (`getaddrinfo`: /etc/hosts, then DNS), run off the event loops.
    public static let system = HostResolver { host in
        try await NIOThreadPool.singleton.runIfActive { try getaddrinfoAddresses(host) }
    }

    struct LookupFailed: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "getaddrinfo failed (\(code))" }
    }

    static func getaddrinfoAddresses(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { throw LookupFailed(code: status) }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var next = list
        while let entry = next {
            defer { next = entry.pointee.ai_next }
            guard let socketAddress = entry.pointee.ai_addr else { continue }
            switch Int32(entry.pointee.ai_family) {
            case AF_INET:
                let bytes = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
                }
                if let address = IPAddress(bytes: bytes) { addresses.append(address) }
            case AF_INET6:
                let bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                }
                if let address = IPAddress(bytes: bytes) { addresses.append(address) }
            default:
                continue
            }
        }
        var seen = Set<IPAddress>()
        return addresses.filter { seen.insert($0).inserted }
    }
}

/// Keeps user-supplied URLs (webhooks, Web Push endpoints) from reaching this server's own
/// network: loopback, private, link-local (cloud metadata at 169.254.169.254), CGNAT and the rest
/// of ``AddressScope``.
///
/// It checks what a connection would really reach, not the URL's text: IP literals are read the
/// way `inet_aton` reads them (`127.1`, `0177.0.0.1`, `0x7f000001`), names are resolved and
/// refused if *any* address they resolve to is not public, and the request is then made to the
/// checked address (``Destination/dnsOverride``), so a name that resolves differently a moment
/// later (DNS rebinding) cannot redirect it.
public enum PrivateNetworkGuard {
    /// Where a checked request connects.
    public struct Destination: Sendable, Hashable {
        /// The host as the HTTP client reads it from the URL (its key for a DNS override).
        public var host: String
        /// The checked address the connection must go to.
        public var address: IPAddress
        /// Host → address for the HTTP client, empty when the host is already that literal. The
        /// `Host` header, TLS server name and certificate check keep the original name.
        public var dnsOverride: [String: String]
    }

    /// Why the guard refused: a reason fit to show, with the detail for the log.
    public struct Refusal: Error, Sendable, Hashable {
        public var failure: DeliveryFailure
        public var detail: String
    }

    public static let refusedReason = "Refused: the address is on a private network."

    /// Checks `url` and decides the address to connect to.
    public static func destination(
        for url: URL, resolver: HostResolver, permits: @Sendable (IPAddress) -> Bool = { $0.isPublic }
    ) async throws(Refusal) -> Destination {
        guard let rawHost = url.host, !rawHost.isEmpty else {
            throw Refusal(failure: .permanent("The address is not a valid URL."), detail: "no host")
        }
        // The HTTP client takes `url.host` without IPv6 brackets; a literal it can parse itself
        // (inet_pton) is connected to as is, anything else is resolved by name.
        let clientHost = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let clientSeesLiteral = (try? SocketAddress(ipAddress: clientHost, port: 0)) != nil
        let host = NetworkHost.normalized(clientHost)

        let addresses: [IPAddress]
        if let literal = IPAddress(literal: host) {
            addresses = [literal]
        } else {
            if let reason = NetworkHost.privateReason(host) {
                throw Refusal(failure: .permanent(refusedReason), detail: "\(host) \(reason)")
            }
            do {
                addresses = try await resolver.resolve(host)
            } catch {
                throw Refusal(failure: .transient("The address could not be looked up."), detail: "\(host): \(error)")
            }
        }
        guard let first = addresses.first else {
            throw Refusal(failure: .transient("The address could not be looked up."), detail: "\(host): no addresses")
        }
        if let inward = addresses.first(where: { !permits($0) }) {
            throw Refusal(failure: .permanent(refusedReason), detail: "\(host) resolves to \(inward) (\(inward.scope.rawValue))")
        }
        return Destination(
            host: clientHost, address: first,
            dnsOverride: clientSeesLiteral ? [:] : [clientHost: first.description])
    }
}
