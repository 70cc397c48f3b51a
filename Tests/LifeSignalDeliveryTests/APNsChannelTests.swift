import LifeSignalTestSupport
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import HummingbirdHTTP2
import LifeSignalDelivery
import LifeSignalModels
import NIOSSL
import Testing

/// A request context that knows whether the request came over HTTP/2: an HTTP/2 stream's
/// channel hangs off the connection's channel, which hangs off the listening socket.
struct StreamAwareContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let isHTTP2: Bool

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        isHTTP2 = source.channel.parent?.parent != nil
    }
}

@Suite(.serialized) struct APNsChannelTests {
    struct Push: Sendable {
        var isHTTP2: Bool
        var path: String
        var token: String
        var header: String
        var claims: String
        var topic: String?
        var pushType: String?
        var priority: String?
        var apnsID: String?
        var body: Data
        var collapseID: String? = nil
    }

    static let teamID = "TEAM123456"
    static let keyID = "KEY7654321"
    static let signingKey = P256.Signing.PrivateKey()

    /// APNs look-alike: checks the provider token's signature, answers like Apple does.
    static func fakeAPNs(pushes: Recorder<Push>) -> Router<StreamAwareContext> {
        let router = Router(context: StreamAwareContext.self)
        router.post("3/device/:token") { request, context -> Response in
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 16))
            let received = ReceivedRequest(request, body: ByteBuffer(data: body))
            let deviceToken = context.parameters.get("token") ?? ""
            guard let authorization = received.header("authorization"), authorization.hasPrefix("bearer "),
                let jwt = try? VerifiedJWT(String(authorization.dropFirst(7)), publicKey: signingKey.publicKey)
            else {
                return json(.forbidden, #"{"reason":"InvalidProviderToken"}"#)
            }
            await pushes.append(
                Push(
                    isHTTP2: context.isHTTP2, path: received.path, token: String(authorization.dropFirst(7)),
                    header: String(decoding: fromBase64url(String(authorization.dropFirst(7).split(separator: ".")[0]))!, as: UTF8.self),
                    claims: jwt.rawClaims, topic: received.header("apns-topic"), pushType: received.header("apns-push-type"),
                    priority: received.header("apns-priority"), apnsID: received.header("apns-id"), body: body,
                    collapseID: received.header("apns-collapse-id")))
            switch deviceToken {
            case String(repeating: "b", count: 64): return json(.badRequest, #"{"reason":"BadDeviceToken"}"#)
            case String(repeating: "c", count: 64): return json(.gone, #"{"reason":"Unregistered","timestamp":1772529120000}"#)
            case String(repeating: "d", count: 64): return json(.serviceUnavailable, #"{"reason":"ServiceUnavailable"}"#)
            default:
                return Response(status: .ok, headers: [.init("apns-id")!: received.header("apns-id") ?? "none"])
            }
        }
        return router
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Runs the fake over TLS with HTTP/2 and a certificate made for this test.
    func withFakeAPNs(_ body: (_ port: Int, _ clientTLS: TLSConfiguration, _ pushes: Recorder<Push>) async throws -> Void) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = try await SelfSignedCertificate.make(in: directory)
        let serverTLS = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.keyPath, format: .pem)))
        var clientTLS = TLSConfiguration.makeClientConfiguration()
        clientTLS.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate.certificatePath))
        let pushes = Recorder<Push>()
        try await withLocalServer(Self.fakeAPNs(pushes: pushes), server: .http2Upgrade(tlsConfiguration: serverTLS)) { port in
            try await body(port, clientTLS, pushes)
        }
    }

    func channel(
        port: Int, tls: TLSConfiguration, timeout: Duration = .seconds(10), now: @escaping @Sendable () -> Date = { fixedNow }
    ) throws -> APNsChannel {
        try APNsChannel(
            configuration: .init(
                baseURL: "https://127.0.0.1:\(port)", teamID: Self.teamID, keyID: Self.keyID,
                privateKey: Self.signingKey.pemRepresentation, topic: "app.lifesignal.ios", timeout: timeout,
                tlsConfiguration: tls),
            httpClient: .shared, now: now)
    }

    @Test func pushesOverHTTP2WithAProviderToken() async throws {
        try await withFakeAPNs { port, tls, pushes in
            let token = String(repeating: "a1", count: 32)
            let message = OutgoingMessage.fixture(channel: .apns, address: token)
            let receipt = try await channel(port: port, tls: tls).send(message)
            #expect(receipt == .sent(providerID: message.deliveryID.description))

            let push = try #require(await pushes.values.first)
            #expect(push.isHTTP2)
            #expect(push.path == "/3/device/\(token)")
            #expect(push.topic == "app.lifesignal.ios")
            #expect(push.pushType == "alert")
            #expect(push.priority == "10")
            #expect(push.collapseID == push.apnsID)
            #expect(push.header == #"{"alg":"ES256","kid":"KEY7654321"}"#)
            #expect(push.claims == #"{"iat":1772529120,"iss":"TEAM123456"}"#)
            let payload = try #require(try JSONSerialization.jsonObject(with: push.body) as? [String: Any])
            let aps = try #require(payload["aps"] as? [String: Any])
            let alert = try #require(aps["alert"] as? [String: String])
            #expect(alert == ["title": message.title, "body": message.body])
            #expect(aps["sound"] as? String == "default")
            #expect(payload["kind"] as? String == "incident_opened")
        }
    }

    @Test func reusesTheProviderTokenForFiftyMinutes() async throws {
        try await withFakeAPNs { port, tls, pushes in
            let clock = ManualNow(fixedNow)
            let channel = try channel(port: port, tls: tls, now: { clock.now })
            let message = OutgoingMessage.fixture(channel: .apns, address: String(repeating: "a", count: 64), urgent: false)
            _ = try await channel.send(message)
            clock.set(fixedNow + 49 * 60)
            _ = try await channel.send(message)
            clock.set(fixedNow + 50 * 60)
            _ = try await channel.send(message)

            let tokens = await pushes.values.map(\.token)
            #expect(tokens.count == 3)
            #expect(tokens[0] == tokens[1])
            #expect(tokens[2] != tokens[1])
            #expect(await pushes.values.last?.claims == #"{"iat":\#(Int(fixedNow.timeIntervalSince1970) + 3000),"iss":"TEAM123456"}"#)
            #expect(await pushes.values.last?.priority == "5")
        }
    }

    @Test func deadTokensArePermanentAndOutagesTransient() async throws {
        try await withFakeAPNs { port, tls, _ in
            let channel = try channel(port: port, tls: tls)
            for letter in ["b", "c"] {
                await #expect(throws: DeliveryFailure.permanent("The device is no longer registered for notifications.")) {
                    try await channel.send(.fixture(channel: .apns, address: String(repeating: letter, count: 64)))
                }
            }
            await #expect(throws: DeliveryFailure.transient("Apple's push service answered with an error.")) {
                try await channel.send(.fixture(channel: .apns, address: String(repeating: "d", count: 64)))
            }
            await #expect(throws: DeliveryFailure.permanent("The device token is not valid.")) {
                try await channel.send(.fixture(channel: .apns, address: "not-a-token"))
            }
        }
    }

    @Test func aCertificateNobodyTrustsIsRefused() async throws {
        try await withFakeAPNs { port, _, pushes in
            let untrusting = try channel(port: port, tls: .makeClientConfiguration(), timeout: .seconds(1))
            do {
                _ = try await untrusting.send(.fixture(channel: .apns, address: String(repeating: "a", count: 64)))
                Issue.record("expected the self-signed certificate to be refused")
            } catch let error as DeliveryFailure {
                #expect(error.isTransient)
            }
            #expect(await pushes.count == 0)
        }
    }
}
