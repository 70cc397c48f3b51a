import LifeSignalTestSupport
import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Logging
import NIOPosix
import Synchronization
import Testing

@Suite struct WebhookChannelTests {
    /// A receiver that checks the signature the way an integrator would, and answers with `status`.
    static func receiver(
        secret: String, status: HTTPResponse.Status = .ok, recorder: Recorder<ReceivedRequest>
    ) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let received = ReceivedRequest(request, body: body)
            await recorder.append(received)
            guard let signature = received.header("LifeSignal-Signature"),
                WebhookSignature.verify(header: signature, body: received.body, secret: secret, now: fixedNow)
            else { return Response(status: .unauthorized) }
            return Response(status: status)
        }
        return router
    }

    func channel(
        secret: String = "whsec_global", endpointSecrets: [String: String] = [:], timeout: Duration = .seconds(5)
    ) -> WebhookChannel {
        WebhookChannel(
            configuration: .init(secret: secret, endpointSecrets: endpointSecrets, timeout: timeout, allowPrivateNetworks: true),
            httpClient: .shared, now: { fixedNow })
    }

    @Test func postsSignedJSONAndReportsDelivered() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.receiver(secret: "whsec_global", recorder: recorder)) { port in
            let message = OutgoingMessage.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/hook")
            let receipt = try await channel().send(message)
            #expect(receipt == .delivered(providerID: message.deliveryID.description))

            let request = try #require(await recorder.values.first)
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Idempotency-Key") == message.deliveryID.description)
            #expect(request.header("LifeSignal-Delivery") == message.deliveryID.description)
            #expect(request.header("LifeSignal-Signature")?.hasPrefix("t=1772529120,v1=") == true)
            let payload = try WebhookPayload.decoder.decode(WebhookPayload.self, from: request.body)
            #expect(payload == WebhookPayload(message, sentAt: fixedNow))
            let json = try #require(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            #expect(json["kind"] as? String == "incident_opened")
            #expect(json["sent_at"] as? String == "2026-03-03T09:12:00Z")
            #expect(json["delivery_id"] as? String == "00000000-0000-0000-0000-0000000000d1")
        }
    }

    @Test func usesTheEndpointsOwnSecretWhenConfigured() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.receiver(secret: "endpoint-secret", recorder: recorder)) { port in
            let address = "http://127.0.0.1:\(port)/hook"
            let message = OutgoingMessage.fixture(channel: .webhook, address: address)
            // With the global secret the receiver answers 401, a permanent failure…
            await #expect(throws: DeliveryFailure.permanent("The webhook endpoint answered with an error.")) {
                try await channel().send(message)
            }
            // …with the endpoint's own secret it accepts.
            let receipt = try await channel(endpointSecrets: [address: "endpoint-secret"]).send(message)
            #expect(receipt.status == .delivered)
        }
    }

    @Test func theChannelsOwnSecretWinsOverTheEndpointAndServerSecrets() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.receiver(secret: "whsec_channel", recorder: recorder)) { port in
            let address = "http://127.0.0.1:\(port)/hook"
            var message = OutgoingMessage.fixture(channel: .webhook, address: address)
            message.signingSecret = "whsec_channel"
            let receipt = try await channel(endpointSecrets: [address: "endpoint-secret"]).send(message)
            #expect(receipt.status == .delivered)
            // The secret travels in the signature only: never in the body.
            let request = try #require(await recorder.values.first)
            #expect(!String(decoding: request.body, as: UTF8.self).contains("whsec_channel"))
        }
    }

    @Test func acceptedMeansSentNotDelivered() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.receiver(secret: "whsec_global", status: .accepted, recorder: recorder)) { port in
            let receipt = try await channel().send(.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/hook"))
            #expect(receipt.status == .sent)
        }
    }

    @Test(arguments: [
        (HTTPResponse.Status.internalServerError, true), (.badGateway, true), (.tooManyRequests, true),
        (.notFound, false), (.gone, false), (.badRequest, false),
    ])
    func statusCodesMapToTransientOrPermanent(status: HTTPResponse.Status, transient: Bool) async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.receiver(secret: "whsec_global", status: status, recorder: recorder)) { port in
            do {
                _ = try await channel().send(.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/hook"))
                Issue.record("expected a failure for \(status.code)")
            } catch let error as DeliveryFailure {
                #expect(error.isTransient == transient)
            }
        }
    }

    /// AsyncHTTPClient keeps retrying a refused connection until the deadline, hence the short timeout.
    @Test func connectionRefusedIsTransient() async throws {
        let port = try unusedLocalPort()
        await #expect(throws: DeliveryFailure.transient("The webhook endpoint could not be reached.")) {
            try await channel(timeout: .seconds(1)).send(.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/hook"))
        }
    }

    /// A failed send is logged with the endpoint's host only: webhook URLs carry their
    /// receiver's token (Slack, Home Assistant), which must never reach the server's log.
    @Test func aFailureLogsTheHostNeverTheURL() async throws {
        let port = try unusedLocalPort()
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "webhook") { _ in CapturingLogHandler(lines: lines) }
        let hook = WebhookChannel(
            configuration: .init(secret: "s", timeout: .seconds(1), allowPrivateNetworks: true), httpClient: .shared,
            now: { fixedNow }, logger: logger)
        await #expect(throws: DeliveryFailure.self) {
            try await hook.send(.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/api/webhook/SECRET-TOKEN-42?key=K9"))
        }
        let logged = lines.value.withLock { $0 }
        #expect(!logged.isEmpty)
        #expect(logged.allSatisfy { !$0.contains("SECRET-TOKEN-42") && !$0.contains("K9") }, "\(logged)")
        #expect(logged.contains { $0.contains("http://127.0.0.1:\(port)/…") })
    }

    struct CapturingLogHandler: LogHandler {
        final class Lines: Sendable { let value = Mutex<[String]>([]) }
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let meta = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
            lines.value.withLock { $0.append("\(event.message) \(meta)") }
        }
    }

    @Test func aSilentEndpointTimesOutAsTransient() async throws {
        // A listener that accepts the connection and never answers. (A web framework's handler
        // left hanging would be answered or torn down at shutdown, racing the client's timeout.)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        await #expect(throws: DeliveryFailure.transient("The webhook endpoint did not answer in time.")) {
            try await channel(timeout: .milliseconds(300))
                .send(.fixture(channel: .webhook, address: "http://127.0.0.1:\(port)/hook"))
        }
        try await listener.close()
    }

    @Test(arguments: ["not a url", "ftp://example.com/x", "/relative/path"])
    func anAddressThatIsNotAnHTTPURLIsPermanent(address: String) async throws {
        await #expect(throws: DeliveryFailure.permanent("The webhook address is not a valid http(s) URL.")) {
            try await channel().send(.fixture(channel: .webhook, address: address))
        }
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/hook", "http://localhost/hook", "http://169.254.169.254/latest/meta-data",
        "http://10.0.0.5/x", "http://192.168.1.1/x", "http://172.20.0.1/x", "http://[::1]/x", "http://[fd00::1]/x",
        "http://[::ffff:127.0.0.1]/x", "http://printer.local/x", "http://intranet/x",
    ])
    func privateNetworksAreRefusedByDefault(address: String) async {
        let production = WebhookChannel(configuration: .init(secret: "s"), httpClient: .shared, now: { fixedNow })
        await #expect(throws: DeliveryFailure.permanent(PrivateNetworkGuard.refusedReason)) {
            try await production.send(.fixture(channel: .webhook, address: address))
        }
    }
}
