import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalServer
import LifeSignalTestSupport
import NIOCore
import Testing

/// Which address a request counts against in rate limits, behind proxies or not.
@Suite struct ClientAddressTests {
    static let proxies = ClientAddressResolver(trustedProxies: try! IPNetwork.list("10.0.0.0/8, 192.168.1.1, fd00::/8").get())

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var peer: String?
        var forwarded: [String] = []
        var xForwardedFor: [String] = []
        var expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no proxy, no headers", peer: "203.0.113.7", expected: "203.0.113.7"),
        Case(
            name: "a spoofed header from an untrusted peer is ignored", peer: "203.0.113.7",
            forwarded: ["for=198.51.100.1"], xForwardedFor: ["198.51.100.2"], expected: "203.0.113.7"),
        Case(name: "X-Forwarded-For through one proxy", peer: "10.0.0.2", xForwardedFor: ["198.51.100.9"], expected: "198.51.100.9"),
        Case(
            name: "the client's own made-up entries left of the real one are ignored", peer: "10.0.0.2",
            xForwardedFor: ["1.2.3.4, 5.6.7.8", "198.51.100.9"], expected: "198.51.100.9"),
        Case(
            name: "a chain of trusted proxies is skipped from the right", peer: "10.0.0.2",
            xForwardedFor: ["198.51.100.9, 192.168.1.1, 10.1.2.3"], expected: "198.51.100.9"),
        Case(
            name: "Forwarded wins over X-Forwarded-For", peer: "10.0.0.2", forwarded: ["for=198.51.100.20;proto=https"],
            xForwardedFor: ["198.51.100.21"], expected: "198.51.100.20"),
        Case(
            name: "Forwarded with several elements, ports and quotes", peer: "10.0.0.2",
            forwarded: [#"for=1.1.1.1, for="198.51.100.30:4711";by=10.0.0.2"#, #"for="[fd00::5]:80""#],
            expected: "198.51.100.30"),
        Case(
            name: "an IPv6 client counts per /64", peer: "10.0.0.2", forwarded: [#"for="[2001:db8:aa:bb:1:2:3:4]""#],
            expected: "2001:db8:aa:bb::/64"),
        Case(name: "an IPv6 peer counts per /64", peer: "2001:db8:aa:bb:ffff::1", expected: "2001:db8:aa:bb::/64"),
        Case(name: "an IPv4-mapped IPv6 peer is its IPv4 address", peer: "::ffff:203.0.113.7", expected: "203.0.113.7"),
        Case(
            name: "an unreadable entry stops the walk at the nearest known address", peer: "10.0.0.2",
            xForwardedFor: ["198.51.100.9, not-an-address"], expected: "10.0.0.2"),
        Case(
            name: "an unreadable entry behind a trusted hop stops at that hop", peer: "10.0.0.2",
            xForwardedFor: ["198.51.100.9, garbage, 10.9.9.9"], expected: "10.9.9.9"),
        Case(name: "Forwarded for=unknown", peer: "10.0.0.2", forwarded: ["for=unknown"], expected: "10.0.0.2"),
        Case(name: "Forwarded obfuscated node", peer: "10.0.0.2", forwarded: ["for=_hidden"], expected: "10.0.0.2"),
        Case(
            name: "Forwarded element without for=", peer: "10.0.0.2", forwarded: ["proto=https;by=10.0.0.2"],
            xForwardedFor: ["198.51.100.9"], expected: "10.0.0.2"),
        Case(
            name: "a bracketed IPv4 address is not an address", peer: "10.0.0.2", forwarded: [#"for="[198.51.100.9]""#],
            expected: "10.0.0.2"),
        Case(name: "an empty X-Forwarded-For", peer: "10.0.0.2", xForwardedFor: [""], expected: "10.0.0.2"),
        Case(
            name: "every hop trusted: the furthest one", peer: "10.0.0.2", xForwardedFor: ["10.3.3.3, 192.168.1.1"],
            expected: "10.3.3.3"),
        Case(name: "no peer address (a Unix socket)", peer: nil, xForwardedFor: ["198.51.100.9"], expected: "local"),
    ]

    @Test(arguments: cases)
    func clientKey(_ test: Case) {
        #expect(
            Self.proxies.clientKey(peer: test.peer, forwarded: test.forwarded, xForwardedFor: test.xForwardedFor)
                == test.expected)
    }

    @Test func withoutTrustedProxiesHeadersAreNeverBelieved() {
        let resolver = ClientAddressResolver()
        #expect(resolver.clientKey(peer: "10.0.0.2", xForwardedFor: ["198.51.100.9"]) == "10.0.0.2")
        #expect(resolver.clientKey(peer: "10.0.0.2", forwarded: ["for=198.51.100.9"]) == "10.0.0.2")
    }

    @Test(arguments: [
        ("10.0.0.0/8", "10.255.1.2", true), ("10.0.0.0/8", "11.0.0.1", false), ("192.168.1.1", "192.168.1.1", true),
        ("192.168.1.1", "192.168.1.2", false), ("2001:db8::/32", "2001:db8:ffff::1", true),
        ("2001:db8::/32", "2001:db9::1", false), ("10.0.0.0/8", "::ffff:10.1.1.1", true), ("::/0", "10.0.0.1", false),
        ("0.0.0.0/0", "203.0.113.1", true), ("172.16.0.0/12", "172.31.255.255", true), ("172.16.0.0/12", "172.32.0.0", false),
    ])
    func cidrContains(_ network: String, _ address: String, _ expected: Bool) throws {
        let network = try #require(IPNetwork(network))
        let address = try #require(IPAddress(address))
        #expect(network.contains(address) == expected)
    }

    @Test(arguments: ["10.0.0.0/33", "10.0.0/8", "::1/129", "example.com", "10.0.0.0/", "10.0.0.0/-1", "/8", "10.0.0.0/8/8"])
    func malformedCIDRsAreRefused(_ text: String) {
        #expect(IPNetwork(text) == nil)
        guard case .failure = IPNetwork.list("127.0.0.1, \(text)") else {
            Issue.record("\(text) was accepted in a list")
            return
        }
    }

    /// End to end over a real socket (the peer is 127.0.0.1): behind a trusted proxy, two
    /// clients have limits of their own; from an untrusted peer the header changes nothing.
    @Test(arguments: [true, false])
    func codeRequestsCountAgainstTheForwardedAddress(trusted: Bool) async throws {
        let proxies = trusted ? try IPNetwork.list("127.0.0.0/8").get() : []
        let world = try await TestWorld(server: { $0.trustedProxies = proxies })
        try await world.test(.live) { client in
            func request(_ n: Int, from address: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: Operations.requestSignInCode.path, method: .post,
                    headers: [.contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: address],
                    body: ByteBuffer(string: #"{"phone":"+1555\#(String(format: "%07d", n))"}"#)
                ) { $0.status }
            }
            let limit = world.core.configuration.codeRequestsPerAddressPerHour
            for n in 0..<limit {
                let status = try await request(n, from: "198.51.100.1")
                #expect(status == .ok)
            }
            let over = try await request(limit, from: "198.51.100.1")
            #expect(over == .tooManyRequests)
            let other = try await request(limit + 1, from: "198.51.100.2")
            #expect(other == (trusted ? .ok : .tooManyRequests))
        }
    }

    /// "The browser used https" (`X-Forwarded-Proto`) is believed only from a trusted proxy:
    /// from anyone else it would make cookies `Secure` and pages claim HSTS on plain http.
    @Test(arguments: [true, false])
    func theForwardedSchemeIsBelievedOnlyFromATrustedProxy(trusted: Bool) async throws {
        let proxies = trusted ? try IPNetwork.list("127.0.0.0/8").get() : []
        let world = try await TestWorld(server: { $0.trustedProxies = proxies })
        try await world.test(.live) { client in
            let (cookies, hsts) = try await client.execute(
                uri: "/signin", method: .get, headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"]
            ) { ($0.headers[values: .setCookie], $0.headers[HTTPField.Name("Strict-Transport-Security")!]) }
            let csrf = try #require(cookies.first { $0.hasPrefix("ls_csrf=") })
            #expect(csrf.hasSuffix("; Secure") == trusted, "\(csrf)")
            #expect((hsts != nil) == trusted)
        }
    }
}
