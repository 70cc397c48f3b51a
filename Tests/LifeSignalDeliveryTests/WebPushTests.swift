import LifeSignalTestSupport
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Testing

@Suite struct WebPushEncryptionTests {
    // RFC 8291 §5 / Appendix A.
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    @Test func reproducesTheRFC8291Example() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: fromBase64url(Self.asPrivate)!)
        #expect(base64url(sender.publicKey.x963Representation) == Self.asPublic)
        let body = try WebPushEncryption.encrypt(
            Data(Self.plaintext.utf8), userAgentPublicKey: fromBase64url(Self.uaPublic)!,
            authSecret: fromBase64url(Self.authSecret)!, senderKey: sender, salt: fromBase64url(Self.salt)!)
        #expect(base64url(body) == Self.body)
    }

    @Test func theTestsReceiverOpensTheRFCExample() throws {
        // Checks the fake push service's decryption against the RFC, so its verdicts mean something.
        let receiver = WebPushReceiver(
            privateKey: try P256.KeyAgreement.PrivateKey(rawRepresentation: fromBase64url(Self.uaPrivate)!),
            authSecret: fromBase64url(Self.authSecret)!)
        #expect(String(decoding: try receiver.decrypt(fromBase64url(Self.body)!), as: UTF8.self) == Self.plaintext)
    }

    @Test func rejectsBadSubscriptionKeys() {
        #expect(throws: WebPushEncryption.Failure.invalidPublicKey) {
            try WebPushEncryption.encrypt(Data("x".utf8), userAgentPublicKey: Data(repeating: 4, count: 65), authSecret: Data(count: 16))
        }
        #expect(throws: WebPushEncryption.Failure.invalidAuthSecret) {
            try WebPushEncryption.encrypt(Data("x".utf8), userAgentPublicKey: fromBase64url(Self.uaPublic)!, authSecret: Data(count: 3))
        }
    }
}

@Suite struct WebPushChannelTests {
    struct Push: Sendable {
        var plaintext: Data
        var claims: String
        var audience: String?
        var expiry: Int?
        var subject: String?
        var ttl: String?
        var urgency: String?
        var contentEncoding: String?
        var topic: String? = nil
    }

    /// A push service: verifies the VAPID JWT against the key in `k=`, then decrypts the body with
    /// the browser's private key, as the browser would.
    static func pushService(receiver: WebPushReceiver, vapidPublicKey: String, pushes: Recorder<Push>) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("push/:id") { request, context -> Response in
            let id = context.parameters.get("id") ?? ""
            if id == "expired" { return Response(status: .gone) }
            if id == "unknown" { return Response(status: .notFound) }
            if id == "busy" { return Response(status: .tooManyRequests) }
            let body = Data(buffer: try await request.body.collect(upTo: 1 << 16))
            let received = ReceivedRequest(request, body: ByteBuffer(data: body))
            guard let authorization = received.header("Authorization"), authorization.hasPrefix("vapid ") else {
                return Response(status: .unauthorized)
            }
            var parameters: [String: String] = [:]
            for part in authorization.dropFirst(6).split(separator: ",") {
                let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2 { parameters[pair[0]] = pair[1] }
            }
            guard parameters["k"] == vapidPublicKey, let token = parameters["t"],
                let key = try? P256.Signing.PublicKey(x963Representation: fromBase64url(vapidPublicKey) ?? Data()),
                let jwt = try? VerifiedJWT(token, publicKey: key),
                jwt.header["alg"] as? String == "ES256"
            else { return Response(status: .forbidden) }
            guard let plaintext = try? receiver.decrypt(body) else { return Response(status: .badRequest) }
            await pushes.append(
                Push(
                    plaintext: plaintext, claims: jwt.rawClaims, audience: jwt.claims["aud"] as? String,
                    expiry: jwt.claims["exp"] as? Int, subject: jwt.claims["sub"] as? String,
                    ttl: received.header("TTL"), urgency: received.header("Urgency"),
                    contentEncoding: received.header("Content-Encoding"), topic: received.header("Topic")))
            return Response(status: .created, headers: [.location: "/messages/\(id)-1"])
        }
        return router
    }

    static let vapidPrivateKey = base64url(P256.Signing.PrivateKey().rawRepresentation)

    func setUp() throws -> (WebPushReceiver, WebPushChannel) {
        let receiver = WebPushReceiver(privateKey: P256.KeyAgreement.PrivateKey(), authSecret: Data((0..<16).map { UInt8($0) }))
        let channel = try WebPushChannel(
            configuration: .init(
                vapidPrivateKey: Self.vapidPrivateKey, vapidSubject: "mailto:ops@lifesignal.example",
                allowPrivateNetworks: true),
            httpClient: .shared, now: { fixedNow })
        return (receiver, channel)
    }

    func subscription(port: Int, id: String, receiver: WebPushReceiver) -> String {
        let keys = receiver.subscriptionKeys
        return
            #"{"endpoint":"http://127.0.0.1:\#(port)/push/\#(id)","expirationTime":null,"keys":{"p256dh":"\#(keys.p256dh)","auth":"\#(keys.auth)"}}"#
    }

    @Test func pushesAnEncryptedPayloadTheBrowserCanRead() async throws {
        let (receiver, channel) = try setUp()
        let pushes = Recorder<Push>()
        try await withLocalServer(Self.pushService(receiver: receiver, vapidPublicKey: channel.vapidPublicKey, pushes: pushes)) { port in
            let message = OutgoingMessage.fixture(channel: .webPush, address: subscription(port: port, id: "abc", receiver: receiver))
            let receipt = try await channel.send(message)
            #expect(receipt == .sent(providerID: "/messages/abc-1"))

            let push = try #require(await pushes.values.first)
            let payload = try #require(try JSONSerialization.jsonObject(with: push.plaintext) as? [String: Any])
            #expect(payload["title"] as? String == message.title)
            #expect(payload["body"] as? String == message.body)
            #expect(payload["kind"] as? String == "incident_opened")
            #expect(payload["urgent"] as? Bool == true)
            #expect(payload["link"] as? String == "https://lifesignal.example/incidents/1")
            #expect(payload["delivery_id"] as? String == message.deliveryID.description)
            #expect(push.audience == "http://127.0.0.1:\(port)")
            #expect(push.expiry == Int(fixedNow.timeIntervalSince1970) + 12 * 3600)
            #expect(push.claims.contains(#""exp":\#(Int(fixedNow.timeIntervalSince1970) + 12 * 3600),"#), "exp is an integer")
            #expect(push.subject == "mailto:ops@lifesignal.example")
            #expect(push.urgency == "high")
            #expect(push.ttl == "3600")
            #expect(push.contentEncoding == "aes128gcm")
            #expect(push.topic == message.deliveryID.description.replacingOccurrences(of: "-", with: ""))
            #expect(push.topic?.count == 32)
        }
    }

    @Test func aLongBodyIsShortenedToFitOneRecord() async throws {
        let (receiver, channel) = try setUp()
        let pushes = Recorder<Push>()
        try await withLocalServer(Self.pushService(receiver: receiver, vapidPublicKey: channel.vapidPublicKey, pushes: pushes)) { port in
            let long = String(repeating: "Ünïcødé ", count: 800)
            let message = OutgoingMessage.fixture(
                channel: .webPush, address: subscription(port: port, id: "abc", receiver: receiver), body: long, urgent: false)
            _ = try await channel.send(message)
            let push = try #require(await pushes.values.first)
            #expect(push.plaintext.count <= 4096 - 86 - 17)
            let payload = try #require(try JSONSerialization.jsonObject(with: push.plaintext) as? [String: Any])
            let body = try #require(payload["body"] as? String)
            #expect(body.hasSuffix("…") && long.hasPrefix(String(body.dropLast())))
            #expect(push.urgency == "normal")
            #expect(push.ttl == "86400")
        }
    }

    @Test(arguments: [("expired", true), ("unknown", true), ("busy", false)])
    func goneSubscriptionsArePermanent(id: String, permanent: Bool) async throws {
        let (receiver, channel) = try setUp()
        try await withLocalServer(Self.pushService(receiver: receiver, vapidPublicKey: channel.vapidPublicKey, pushes: Recorder())) {
            port in
            do {
                _ = try await channel.send(.fixture(channel: .webPush, address: subscription(port: port, id: id, receiver: receiver)))
                Issue.record("expected a failure")
            } catch let error as DeliveryFailure {
                #expect(error.isTransient == !permanent)
                if permanent { #expect(error.reason == "The push subscription has expired.") }
            }
        }
    }

    @Test(arguments: [
        "https://push.example/x", #"{"endpoint":"https://push.example/x"}"#,
        #"{"endpoint":"https://p.example/x","keys":{"p256dh":"AAAA","auth":"AAAA"}}"#,
    ])
    func malformedSubscriptionsArePermanent(address: String) async throws {
        let (_, channel) = try setUp()
        await #expect(throws: DeliveryFailure.permanent("The push subscription is not valid.")) {
            try await channel.send(.fixture(channel: .webPush, address: address))
        }
    }

    @Test func endpointsOnPrivateNetworksAreRefusedByDefault() async throws {
        let receiver = WebPushReceiver(privateKey: P256.KeyAgreement.PrivateKey(), authSecret: Data(count: 16))
        let production = try WebPushChannel(
            configuration: .init(vapidPrivateKey: Self.vapidPrivateKey, vapidSubject: "mailto:ops@lifesignal.example"),
            httpClient: .shared)
        await #expect(throws: DeliveryFailure.permanent(PrivateNetworkGuard.refusedReason)) {
            try await production.send(.fixture(channel: .webPush, address: subscription(port: 80, id: "x", receiver: receiver)))
        }
    }

    @Test func vapidAudienceIsTheEndpointsOrigin() throws {
        let vapid = try VAPID(privateKey: Self.vapidPrivateKey, subject: "mailto:a@b.c", validity: 48 * 3600)
        #expect(vapid.validity == 24 * 3600)
        let header = try vapid.authorization(endpoint: URL(string: "https://fcm.googleapis.com:443/fcm/send/abc?x=1")!, now: fixedNow)
        let token = String(header.dropFirst("vapid t=".count).prefix { $0 != "," })
        let key = try P256.Signing.PublicKey(x963Representation: fromBase64url(vapid.publicKey)!)
        let jwt = try VerifiedJWT(token, publicKey: key)
        #expect(jwt.claims["aud"] as? String == "https://fcm.googleapis.com")
        #expect(jwt.claims["exp"] as? Int == Int(fixedNow.timeIntervalSince1970) + 24 * 3600)
        #expect(header.hasSuffix(", k=\(vapid.publicKey)"))
    }
}
