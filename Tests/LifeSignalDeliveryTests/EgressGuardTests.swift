import LifeSignalTestSupport
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import LifeSignalModels
import LifeSignalRules
import NIOCore
import Synchronization
import Testing

@testable import LifeSignalDelivery

/// User-supplied URLs never reach this machine's own network, whatever form the address takes
/// and whatever the name resolves to; a real listener on 127.0.0.1 counts what arrives.
@Suite struct EgressGuardTests {
    /// Records every request whatever its path; answers `status` with `body`, or a redirect.
    static func listener(
        _ recorder: Recorder<ReceivedRequest>, status: HTTPResponse.Status = .ok, body: String = "",
        redirectTo: String? = nil, authorities: Recorder<String>? = nil
    ) -> Router<BasicRequestContext> {
        let router = Router()
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let collected = try await request.body.collect(upTo: 1 << 20)
            await recorder.append(ReceivedRequest(request, body: collected))
            await authorities?.append(request.head.authority ?? "")
            if let redirectTo {
                return Response(status: .found, headers: [.location: redirectTo])
            }
            return Response(status: status, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.post("**", use: handler)
        router.get("**", use: handler)
        return router
    }

    static func production(resolver: HostResolver = .system) -> WebhookChannel {
        WebhookChannel(configuration: .init(secret: "s", timeout: .seconds(5), resolver: resolver), httpClient: .shared)
    }

    /// The control: the listener is up, and the same request with the tests' opt-out gets
    /// through, so a count of 1 afterwards means everything else was stopped by the guard.
    static func reachWithOptOut(_ port: Int) async throws {
        let optOut = WebhookChannel(configuration: .init(secret: "s", allowPrivateNetworks: true), httpClient: .shared)
        _ = try await optOut.send(.fixture(channel: .webhook, address: "http://127.1:\(port)/hook"))
    }

    static func refused(_ body: () async throws -> ChannelReceipt) async {
        await #expect(throws: DeliveryFailure.permanent(PrivateNetworkGuard.refusedReason)) { try await body() }
    }

    static let loopbackForms = [
        "http://127.0.0.1:PORT/hook", "http://127.1:PORT/hook", "http://0177.0.0.1:PORT/hook", "http://0x7f.1:PORT/hook",
        "http://0x7f000001:PORT/hook", "http://2130706433:PORT/hook", "http://017700000001:PORT/hook",
        "http://[::ffff:127.0.0.1]:PORT/hook", "http://[::ffff:7f00:1]:PORT/hook", "http://[::1]:PORT/hook",
        "http://[64:ff9b::7f00:1]:PORT/hook", "http://localhost:PORT/hook", "http://LOCALHOST.:PORT/hook",
        "http://0.0.0.0:PORT/hook", "http://0:PORT/hook",
    ]

    /// Every form of the listener's own address, against one listener (a listener per form
    /// would start and stop a server for each of them).
    @Test func literalFormsOfLoopbackReachNothing() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.listener(recorder)) { port in
            for template in Self.loopbackForms {
                let address = template.replacingOccurrences(of: "PORT", with: "\(port)")
                await Self.refused { try await Self.production().send(.fixture(channel: .webhook, address: address)) }
            }
            try await Self.reachWithOptOut(port)
        }
        #expect(await recorder.count == 1)
    }

    @Test(arguments: [
        "http://169.254.169.254/latest/meta-data/", "http://0251.0376.0251.0376/latest/meta-data/",
        "http://0xa9fea9fe/latest/meta-data/", "http://2852039166/latest/meta-data/", "http://169.254.43518/",
        "http://[::ffff:169.254.169.254]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[2002:a9fe:a9fe::1]/",
        "http://10.0.0.1/", "http://100.64.0.1/", "http://[fd00::1]/", "http://[fe80::1]/", "http://metadata.google.internal/",
    ])
    func metadataAndPrivateRangesAreRefusedBeforeConnecting(address: String) async {
        await Self.refused { try await Self.production().send(.fixture(channel: .webhook, address: address)) }
    }

    /// A name that resolves inward through the system's real resolver (`getaddrinfo`): the name
    /// is looked up as "localhost", which /etc/hosts maps to loopback.
    @Test func aNameResolvedInwardByGetaddrinfoReachesNothing() async throws {
        let lookups = Mutex<[String]>([])
        let resolver = HostResolver { host in
            lookups.withLock { $0.append(host) }
            return try await HostResolver.system.resolve("localhost")
        }
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.listener(recorder)) { port in
            await Self.refused {
                try await Self.production(resolver: resolver)
                    .send(.fixture(channel: .webhook, address: "http://inward.lifesignal.test:\(port)/hook"))
            }
            try await Self.reachWithOptOut(port)
        }
        #expect(await recorder.count == 1)
        #expect(lookups.withLock { $0 } == ["inward.lifesignal.test"])
    }

    /// The system resolver itself: "localhost" resolves to loopback only.
    @Test func theSystemResolverReadsAddresses() async throws {
        let addresses = try await HostResolver.system.resolve("localhost")
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0.scope == .loopback })
    }

    /// A hosts-file entry, with nothing injected: `127.0.0.1 hosts-entry.lifesignal.test` is
    /// added to /etc/hosts when the tests run as root and it is missing.
    @Test(.enabled(if: EgressGuardTests.hostsEntry, "needs the hosts entry (root adds it)"))
    func aNameFromTheHostsFileReachesNothing() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.listener(recorder)) { port in
            await Self.refused {
                try await Self.production().send(.fixture(channel: .webhook, address: "http://hosts-entry.lifesignal.test:\(port)/hook"))
            }
            try await Self.reachWithOptOut(port)
        }
        #expect(await recorder.count == 1)
    }

    static let hostsEntry: Bool = {
        let name = "hosts-entry.lifesignal.test"
        if (try? HostResolver.getaddrinfoAddresses(name))?.isEmpty == false { return true }
        guard getuid() == 0, let handle = FileHandle(forWritingAtPath: "/etc/hosts") else { return false }
        handle.seekToEndOfFile()
        handle.write(Data("\n127.0.0.1 \(name)\n".utf8))
        try? handle.close()
        return (try? HostResolver.getaddrinfoAddresses(name))?.isEmpty == false
    }()

    /// One inward address among public ones is enough to refuse (round-robin would reach it).
    @Test func anyInwardAddressAmongManyRefuses() async {
        let resolver = HostResolver { _ in [IPAddress(literal: "93.184.216.34")!, IPAddress(literal: "127.0.0.1")!] }
        await Self.refused {
            try await Self.production(resolver: resolver).send(.fixture(channel: .webhook, address: "https://mixed.example.com/hook"))
        }
    }

    @Test func webPushEndpointsAreGuardedToo() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.listener(recorder)) { port in
            let channel = try WebPushChannel(
                configuration: .init(vapidPrivateKey: WebPushChannelTests.vapidPrivateKey, vapidSubject: "mailto:ops@lifesignal.example"),
                httpClient: .shared)
            let keys = WebPushReceiver(privateKey: P256.KeyAgreement.PrivateKey(), authSecret: Data(count: 16)).subscriptionKeys
            for host in ["127.1", "0177.0.0.1", "[::ffff:127.0.0.1]"] {
                let subscription =
                    #"{"endpoint":"http://\#(host):\#(port)/push/x","keys":{"p256dh":"\#(keys.p256dh)","auth":"\#(keys.auth)"}}"#
                await Self.refused { try await channel.send(.fixture(channel: .webPush, address: subscription)) }
            }
            try await Self.reachWithOptOut(port)
        }
        #expect(await recorder.count == 1)
    }

    /// The destination names the checked address, and the client is told to connect there.
    @Test func theDestinationPinsTheCheckedAddress() async throws {
        let resolver = HostResolver { _ in [IPAddress(literal: "93.184.216.34")!, IPAddress(literal: "2606:2800:220:1::1")!] }
        let named = try await PrivateNetworkGuard.destination(for: URL(string: "https://Hooks.Example.com/x")!, resolver: resolver)
        #expect(named.dnsOverride == ["Hooks.Example.com": "93.184.216.34"])
        let canonical = try await PrivateNetworkGuard.destination(for: URL(string: "https://8.8.8.8/x")!, resolver: resolver)
        #expect(canonical.dnsOverride == [:])
        let hex = try await PrivateNetworkGuard.destination(for: URL(string: "http://0x08080808/x")!, resolver: resolver)
        #expect(hex.dnsOverride == ["0x08080808": "8.8.8.8"])
    }

    /// DNS rebinding: the name answers an allowed address when checked and an inward one on any
    /// later lookup. The request still lands on the checked address, with the name in `Host`,
    /// and the name is looked up once.
    @Test func aNameThatChangesAfterTheCheckIsNotLookedUpAgain() async throws {
        let lookups = Mutex(0)
        let resolver = HostResolver { _ in
            let count = lookups.withLock {
                $0 += 1; return $0
            }
            return [IPAddress(literal: count == 1 ? "127.0.0.1" : "10.9.9.9")!]
        }
        let recorder = Recorder<ReceivedRequest>()
        let authorities = Recorder<String>()
        try await withLocalServer(Self.listener(recorder, authorities: authorities)) { port in
            // Only 127.0.0.1 counts as allowed here, standing in for a public address.
            let delivery = HTTPDelivery(
                client: .shared, timeout: .seconds(5), providerName: "The webhook endpoint", logger: .init(label: "test"),
                egress: .init(allowPrivateNetworks: false, resolver: resolver, permits: { $0 == IPAddress(literal: "127.0.0.1") }))
            var request = HTTPClientRequest(url: "http://rebind.lifesignal.test:\(port)/hook")
            request.method = .POST
            let response = try await delivery.execute(request)
            #expect(response.status == 200)
        }
        #expect(await recorder.count == 1)
        // HTTP/1.1's Host header, as the server reads it.
        #expect(await authorities.values.first?.hasPrefix("rebind.lifesignal.test:") == true)
        #expect(lookups.withLock { $0 } == 1)
    }

    @Test func redirectsAreNotFollowed() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.listener(recorder, redirectTo: "/elsewhere")) { port in
            let optOut = WebhookChannel(configuration: .init(secret: "s", allowPrivateNetworks: true), httpClient: .shared)
            await #expect(throws: DeliveryFailure.permanent("The webhook endpoint answered with a redirect, which is not followed.")) {
                try await optOut.send(.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/hook"))
            }
        }
        #expect(await recorder.values.map(\.path) == ["/hook"])
    }

    /// What a failing receiver says stays in the server's log: the reason others read is a category.
    @Test(arguments: [HTTPResponse.Status.internalServerError, .forbidden, .notFound])
    func anErrorAnswerIsNotEchoedIntoTheReason(status: HTTPResponse.Status) async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.listener(recorder, status: status, body: "redis: password=hunter2 at 10.0.0.7")) { port in
            let optOut = WebhookChannel(configuration: .init(secret: "s", allowPrivateNetworks: true), httpClient: .shared)
            do {
                _ = try await optOut.send(.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/hook"))
                Issue.record("expected a failure")
            } catch let error as DeliveryFailure {
                #expect(!error.reason.contains("\(status.code)"))
                #expect(!error.reason.contains("hunter2"))
                #expect(error.reason.hasPrefix("The webhook endpoint answered with an error"))
            }
        }
    }
}
