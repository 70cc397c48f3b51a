import Foundation
import Testing

@testable import LifeSignalRules

@Suite("Network addresses")
struct NetworkAddressTests {
    /// Every form `inet_aton` (and so `getaddrinfo` and browsers) reads as an IPv4 address.
    static let ipv4Cases: [(String, String)] = [
        ("127.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("127.0.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0x7f000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("0X7F.0.0.1", "127.0.0.1"),
        ("127.0.0.1.", "127.0.0.1"), ("0", "0.0.0.0"), ("0x", "0.0.0.0"),
        ("0251.0376.0251.0376", "169.254.169.254"), ("0xa9fea9fe", "169.254.169.254"),
        ("2852039166", "169.254.169.254"), ("169.254.43518", "169.254.169.254"), ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
        ("10.1", "10.0.0.1"), ("8.8.8.8", "8.8.8.8"),
    ]

    @Test("non-canonical IPv4 literals read as what they connect to", arguments: ipv4Cases)
    func ipv4Literals(text: String, canonical: String) throws {
        let address = try #require(IPAddress(literal: text))
        #expect(address.description == canonical)
    }

    @Test(
        "text that is not an address literal",
        arguments: [
            "example.com", "256.1.1.1", "1.2.3.4.5", "1..2", "08.1.1.1", "1.2.3.256", "4294967296", "", "127.0.0.1 ",
            "::1::", "1:2:3:4:5:6:7:8:9", "gggg::1", "[::1", "1.2.3.4:80",
        ])
    func notLiterals(text: String) {
        #expect(IPAddress(literal: text) == nil)
    }

    @Test(
        "IPv6 literals",
        arguments: [
            ("::1", "::1"), ("[::1]", "::1"), ("::ffff:127.0.0.1", "::ffff:7f00:1"), ("[::ffff:7f00:1]", "::ffff:7f00:1"),
            ("64:ff9b::10.0.0.1", "64:ff9b::a00:1"), ("2001:DB8::1", "2001:db8::1"), ("fe80::1%eth0", "fe80::1"),
            ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"), ("2606:4700::6810:85e5", "2606:4700::6810:85e5"), ("::", "::"),
        ])
    func ipv6Literals(text: String, canonical: String) throws {
        let address = try #require(IPAddress(literal: text))
        #expect(address.description == canonical)
    }

    static let scopeCases: [(String, AddressScope)] = [
        // IPv4
        ("8.8.8.8", AddressScope.public), ("1.1.1.1", .public), ("93.184.216.34", .public), ("172.32.0.1", .public),
        ("100.128.0.1", .public), ("169.253.1.1", .public), ("223.255.255.255", .public),
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified),
        ("10.0.0.1", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("192.168.1.1", .privateNetwork), ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
        ("169.254.169.254", .linkLocal), ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
        ("255.255.255.255", .broadcast), ("240.0.0.1", .reserved), ("192.0.2.1", .reserved), ("198.18.0.1", .reserved),
        ("203.0.113.9", .reserved), ("192.0.0.170", .reserved),
        // IPv6
        ("::", .unspecified), ("::1", .loopback), ("2606:4700::6810:85e5", .public), ("2a00:1450:4001:82a::200e", .public),
        ("fe80::1", .linkLocal), ("febf::1", .linkLocal), ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
        ("fec0::1", .uniqueLocal), ("ff02::1", .multicast), ("2001:db8::1", .reserved), ("2001:0:4136:e378::1", .reserved),
        ("100::1", .reserved),
        // IPv6 carrying IPv4: the embedded address decides
        ("::ffff:127.0.0.1", .loopback), ("::ffff:169.254.169.254", .linkLocal), ("::ffff:8.8.8.8", .public),
        ("::127.0.0.1", .loopback), ("::8.8.8.8", .reserved),
        ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::10.1.2.3", .privateNetwork), ("64:ff9b::a9fe:a9fe", .linkLocal),
        ("64:ff9b::8.8.8.8", .public), ("64:ff9b:1::1", .privateNetwork),
        ("2002:7f00:1::1", .loopback), ("2002:c0a8:101::1", .privateNetwork), ("2002:a9fe:a9fe::", .linkLocal),
        ("2002:808:808::1", .public),
    ]

    @Test("scopes", arguments: scopeCases)
    func scopes(text: String, scope: AddressScope) throws {
        let address = try #require(IPAddress(literal: text))
        #expect(address.scope == scope)
        #expect(address.isPublic == (scope == .public))
    }

    @Test("resolver bytes become addresses")
    func fromBytes() {
        #expect(IPAddress(bytes: [127, 0, 0, 1]) == .v4(0x7f00_0001))
        #expect(IPAddress(bytes: Array(repeating: 0, count: 15) + [1])?.scope == .loopback)
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }

    @Test(
        "hosts that are plainly private are refused before any lookup",
        arguments: [
            "localhost", "LOCALHOST.", "api.localhost", "printer.local", "metadata.google.internal", "router.home.arpa",
            "intranet", "nas.lan", "127.1", "0177.0.0.1", "0x7f000001", "2130706433", "[::1]", "[::ffff:127.0.0.1]",
            "[64:ff9b::a9fe:a9fe]", "169.254.169.254", "0251.0376.0251.0376", "10.0.0.1", "[fd00::1]", "0.0.0.0",
            "999.1.1.1", "%31%32%37.0.0.1",
        ])
    func plainlyPrivate(host: String) {
        #expect(NetworkHost.privateReason(host) != nil)
    }

    @Test(
        "hosts that may be public (names are checked again when connected to)",
        arguments: [
            "example.com", "hooks.slack.com", "8.8.8.8", "[2606:4700::6810:85e5]", "ntfy.sh", "localhost.example.com",
        ])
    func mayBePublic(host: String) {
        #expect(NetworkHost.privateReason(host) == nil)
    }
}
