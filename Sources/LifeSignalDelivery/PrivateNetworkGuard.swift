import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps user-supplied URLs (webhooks, Web Push endpoints) from reaching this server's own
/// network: loopback, private, link-local (cloud metadata at 169.254.169.254) and similar.
///
/// It checks the host as written: names that resolve to private addresses (DNS rebinding) need
/// an egress firewall, which this does not replace.
enum PrivateNetworkGuard {
    /// Whether `url`'s host is a local name or a non-public IP literal.
    static func isPrivate(_ url: URL) -> Bool {
        guard var host = url.host?.lowercased() else { return true }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host.hasSuffix(".local")
            || host.hasSuffix(".internal") || host.hasSuffix(".home.arpa") || !host.contains(where: { $0 == "." || $0 == ":" })
        {
            return true
        }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            return isPrivate(v4: withUnsafeBytes(of: v4.s_addr) { Array($0) })
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            let bytes = withUnsafeBytes(of: v6) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
                return isPrivate(v4: Array(bytes[12..<16]))  // IPv4-mapped
            }
            if bytes[0..<15].allSatisfy({ $0 == 0 }) { return true }  // :: and ::1
            if bytes[0] & 0xfe == 0xfc { return true }  // fc00::/7 unique local
            if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return true }  // fe80::/10 link-local
            return false
        }
        return false
    }

    private static func isPrivate(v4 b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168): true
        case (172, 16...31), (100, 64...127): true  // private, carrier-grade NAT
        case (224...255, _): true  // multicast, reserved, broadcast
        default: false
        }
    }
}
