import Foundation

/// An IP address as the bytes a socket connects to, read from the forms a host name may take.
///
/// IPv4 literals are read the way `inet_aton` and browsers read them (`127.1`, `0177.0.0.1`,
/// `0x7f000001`, `2130706433` are all 127.0.0.1), so a URL's host is classified as what a
/// connection to it would really reach, not as the text looks.
public enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    /// Exactly 16 bytes, network order.
    case v6([UInt8])

    /// Reads an IP literal in any form a resolver accepts as one: IPv4 with 1–4 parts in decimal,
    /// octal (leading `0`) or hex (`0x`), an optional trailing dot; IPv6 with or without
    /// brackets, with an embedded dotted IPv4 tail and an optional zone (`%eth0`, ignored).
    /// Nil when `text` is not an address literal (a host name to resolve).
    public init?(literal text: String) {
        var host = Substring(text)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host.contains(":") {
            if let zone = host.firstIndex(of: "%") { host = host[..<zone] }
            guard let bytes = Self.parseV6(host) else { return nil }
            self = .v6(bytes)
        } else {
            guard let value = Self.parseV4(host) else { return nil }
            self = .v4(value)
        }
    }

    /// Builds an address from the bytes a resolver returned (4 or 16).
    public init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self = .v4(bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16: self = .v6(bytes)
        default: return nil
        }
    }

    /// The canonical text: dotted quad, or RFC 5952 IPv6 without brackets.
    public var description: String {
        switch self {
        case .v4(let value):
            return (0..<4).map { String((value >> (24 - 8 * UInt32($0))) & 0xff) }.joined(separator: ".")
        case .v6(let bytes):
            let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            // The longest run of two or more zero groups becomes "::".
            var best: (start: Int, length: Int) = (-1, 0)
            var index = 0
            while index < 8 {
                guard groups[index] == 0 else { index += 1; continue }
                var end = index
                while end < 8, groups[end] == 0 { end += 1 }
                if end - index > best.length { best = (index, end - index) }
                index = end
            }
            let hex = groups.map { String($0, radix: 16) }
            guard best.length >= 2 else { return hex.joined(separator: ":") }
            let head = hex[..<best.start].joined(separator: ":")
            let tail = hex[(best.start + best.length)...].joined(separator: ":")
            return "\(head)::\(tail)"
        }
    }

    // MARK: Parsing

    /// `inet_aton`: a.b.c.d (8.8.8.8 bits), a.b.c (8.8.16), a.b (8.24), a (32).
    static func parseV4(_ text: Substring) -> UInt32? {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }  // "127.0.0.1."
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = parseV4Part(part) else { return nil }
            numbers.append(number)
        }
        let last = numbers.removeLast()
        for number in numbers where number > 0xff { return nil }
        guard last < (UInt64(1) << (8 * (4 - numbers.count))) else { return nil }
        var value = UInt64(0)
        for (index, number) in numbers.enumerated() { value |= number << (24 - 8 * UInt64(index)) }
        return UInt32(value | last)
    }

    private static func parseV4Part(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.count <= 32 else { return nil }
        let lower = part.lowercased()
        let (digits, radix): (Substring, Int) =
            if lower.hasPrefix("0x") { (Substring(lower.dropFirst(2)), 16) } else if lower.count > 1, lower.hasPrefix("0") {
                (Substring(lower.dropFirst()), 8)
            } else { (Substring(lower), 10) }
        if digits.isEmpty { return radix == 16 ? 0 : nil }  // "0x" alone is 0, as inet_aton reads it
        guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        guard let value = UInt64(digits, radix: radix), value <= UInt64(UInt32.max) else { return nil }
        return value
    }

    static func parseV6(_ text: Substring) -> [UInt8]? {
        guard text.count <= 45, text.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else {
            return nil
        }
        var text = text
        // A dotted IPv4 tail (::ffff:127.0.0.1) stands for the last two groups.
        var tail: [UInt16] = []
        if text.contains(".") {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            let dotted = text[text.index(after: colon)...]
            guard dotted.split(separator: ".", omittingEmptySubsequences: false).count == 4,
                dotted.allSatisfy({ $0 == "." || $0.isNumber }),
                let v4 = parseV4(dotted)
            else { return nil }
            tail = [UInt16(v4 >> 16), UInt16(v4 & 0xffff)]
            text = text[...colon]
            if text.hasSuffix(":"), !text.hasSuffix("::") { text = text.dropLast() }
        }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        var all: [UInt16]
        if halves.count == 2 {
            guard let back = groups(halves[1]) else { return nil }
            let missing = 8 - head.count - back.count - tail.count
            guard missing >= 1 else { return nil }
            all = head + Array(repeating: 0, count: missing) + back + tail
        } else {
            all = head + tail
        }
        guard all.count == 8 else { return nil }
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
    }
}

/// What kind of network an address belongs to; only `.public` may be reached by a delivery.
public enum AddressScope: String, Hashable, Sendable, CaseIterable {
    case `public`
    /// 127/8, ::1
    case loopback
    /// 0.0.0.0/8 ("this network", reaches the host itself), ::
    case unspecified
    /// 10/8, 172.16/12, 192.168/16
    case privateNetwork = "private"
    /// 100.64/10 carrier-grade NAT
    case sharedAddressSpace = "cgnat"
    /// 169.254/16 (cloud metadata at 169.254.169.254), fe80::/10
    case linkLocal = "link_local"
    /// fc00::/7, and the deprecated site-local fec0::/10
    case uniqueLocal = "unique_local"
    /// 224/4, ff00::/8
    case multicast
    /// 255.255.255.255
    case broadcast
    /// Documentation, benchmarking, protocol-assignment, future-use and other ranges that no
    /// public server uses; IPv6 transition forms that cannot be checked (Teredo, IPv4-compatible).
    case reserved
}

extension IPAddress {
    /// The scope of this address. Forms that embed an IPv4 address (IPv4-mapped, NAT64
    /// 64:ff9b::/96, 6to4 2002::/16) take the scope of the address they carry.
    public var scope: AddressScope {
        switch self {
        case .v4(let value): return Self.scope(v4: value)
        case .v6(let b): return Self.scope(v6: b)
        }
    }

    public var isPublic: Bool { scope == .public }

    static func scope(v4 value: UInt32) -> AddressScope {
        func within(_ network: UInt32, _ prefix: UInt32) -> Bool {
            prefix == 0 || value >> (32 - prefix) == network >> (32 - prefix)
        }
        if value == 0xffff_ffff { return .broadcast }
        if within(0x0000_0000, 8) { return .unspecified }
        if within(0x7f00_0000, 8) { return .loopback }
        if within(0x0a00_0000, 8) || within(0xac10_0000, 12) || within(0xc0a8_0000, 16) { return .privateNetwork }
        if within(0x6440_0000, 10) { return .sharedAddressSpace }
        if within(0xa9fe_0000, 16) { return .linkLocal }
        if within(0xe000_0000, 4) { return .multicast }
        if within(0xf000_0000, 4) { return .reserved }  // 240/4 future use
        if within(0xc000_0000, 24)  // 192.0.0/24 protocol assignments
            || within(0xc000_0200, 24) || within(0xc633_6400, 24) || within(0xcb00_7100, 24)  // documentation
            || within(0xc612_0000, 15)  // 198.18/15 benchmarking
            || within(0xc058_6300, 24)  // 192.88.99/24 6to4 relay anycast
        {
            return .reserved
        }
        return .public
    }

    static func scope(v6 b: [UInt8]) -> AddressScope {
        func embeddedV4(at offset: Int) -> UInt32 {
            b[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func zero(_ range: Range<Int>) -> Bool { b[range].allSatisfy { $0 == 0 } }
        if zero(0..<16) { return .unspecified }
        if zero(0..<15), b[15] == 1 { return .loopback }
        if zero(0..<10), b[10] == 0xff, b[11] == 0xff { return scope(v4: embeddedV4(at: 12)) }  // ::ffff:a.b.c.d
        if zero(0..<12) {  // ::a.b.c.d, IPv4-compatible (deprecated): never a public destination
            let inner = scope(v4: embeddedV4(at: 12))
            return inner == .public ? .reserved : inner
        }
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b {
            if zero(4..<12) { return scope(v4: embeddedV4(at: 12)) }  // 64:ff9b::/96 NAT64
            if b[4] == 0, b[5] == 1 { return .privateNetwork }  // 64:ff9b:1::/48 local-use NAT64
        }
        if b[0] == 0x20, b[1] == 0x02 {  // 2002::/16 6to4
            let inner = scope(v4: embeddedV4(at: 2))
            return inner == .public ? .public : inner
        }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] == 0x00 { return .reserved }  // 2001::/32 Teredo
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return .reserved }  // 2001:db8::/32 documentation
        if b[0] == 0x01, b[1] == 0x00, zero(2..<8) { return .reserved }  // 100::/64 discard
        if b[0] & 0xfe == 0xfc { return .uniqueLocal }  // fc00::/7
        if b[0] == 0xfe, b[1] & 0xc0 == 0x80 { return .linkLocal }  // fe80::/10
        if b[0] == 0xfe, b[1] & 0xc0 == 0xc0 { return .uniqueLocal }  // fec0::/10 site-local
        if b[0] == 0xff { return .multicast }
        return .public
    }
}

/// Rules for host names that plainly name this server's own network, before any lookup.
public enum NetworkHost {
    /// The host as a resolver sees it: lowercased, brackets and one trailing dot removed,
    /// percent-escapes decoded.
    public static func normalized(_ host: String) -> String {
        var host = (host.removingPercentEncoding ?? host).lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        return host
    }

    /// Why a host is plainly not on the public internet, or nil when it may be (a public IP
    /// literal, or a name that must still be resolved and checked when it is connected to).
    ///
    /// Refuses: any IP literal (in any form `inet_aton` reads) outside public space,
    /// `localhost` and `*.localhost`, `*.local` (mDNS), `*.internal`, `*.home.arpa`,
    /// `*.lan`, `*.intranet`, and single-label names (resolved through search domains).
    public static func privateReason(_ rawHost: String) -> String? {
        let host = normalized(rawHost)
        if host.isEmpty { return "has no host" }
        if let address = IPAddress(literal: host) {
            return address.isPublic ? nil : "is a \(address.scope.rawValue) address"
        }
        // Something that looks numeric but is not a valid literal (999.1.1.1) is not a name either.
        if host.split(separator: ".").last.map({ $0.allSatisfy(\.isNumber) || $0.hasPrefix("0x") }) == true {
            return "is not a valid address"
        }
        let localSuffixes = ["localhost", "local", "internal", "home.arpa", "lan", "intranet", "localdomain"]
        for suffix in localSuffixes where host == suffix || host.hasSuffix("." + suffix) {
            return "is a local name"
        }
        if !host.contains(".") { return "is a local name" }
        return nil
    }
}
