import LifeSignalTestSupport
import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Testing

@Suite struct NtfyChannelTests {
    static func fakeNtfy(recorder: Recorder<ReceivedRequest>) -> Router<BasicRequestContext> {
        let router = Router()
        router.post(":topic") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            await recorder.append(ReceivedRequest(request, body: body))
            if context.parameters.get("topic") == "private",
                request.headers.first(where: { $0.name.rawName == "Authorization" })?.value != "Bearer tk_secret"
            {
                return Response(status: .forbidden)
            }
            return Response(
                status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"id":"sPs71M8A2T","time":1772529120,"event":"message"}"#)))
        }
        return router
    }

    @Test func postsTheBodyWithTitlePriorityAndTags() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.fakeNtfy(recorder: recorder)) { port in
            let channel = NtfyChannel(configuration: .init(baseURL: "http://127.0.0.1:\(port)"), httpClient: .shared)
            let message = OutgoingMessage.fixture(channel: .ntfy, address: "alice-family")
            let receipt = try await channel.send(message)
            #expect(receipt == .sent(providerID: "sPs71M8A2T"))

            let request = try #require(await recorder.values.first)
            #expect(request.path == "/alice-family")
            #expect(request.bodyString == "Alice has not checked in since 08:00. Please call her.")
            #expect(request.header("Title") == "Alice missed her check-in")
            #expect(request.header("Priority") == "5")
            #expect(request.header("Tags") == "rotating_light,incident_opened")
            #expect(request.header("Click") == "https://lifesignal.example/incidents/1")
            #expect(request.header("Authorization") == nil)
            #expect(request.header("LifeSignal-Delivery") == message.deliveryID.description)
        }
    }

    @Test func nonUrgentMessagesUseDefaultPriorityAndUnicodeTitlesAreEncoded() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.fakeNtfy(recorder: recorder)) { port in
            let channel = NtfyChannel(configuration: .init(baseURL: "http://127.0.0.1:\(port)"), httpClient: .shared)
            _ = try await channel.send(
                .fixture(channel: .ntfy, address: "alice", kind: .pingReceived, title: "Zoë pinged you 👋", urgent: false, link: nil))
            let request = try #require(await recorder.values.first)
            #expect(request.header("Priority") == "3")
            #expect(request.header("Tags") == "wave,ping_received")
            #expect(request.header("Click") == nil)
            let encoded = try #require(request.header("Title"))
            #expect(encoded.hasPrefix("=?UTF-8?B?") && encoded.hasSuffix("?="))
            let decoded = Data(base64Encoded: String(encoded.dropFirst(10).dropLast(2))).map { String(decoding: $0, as: UTF8.self) }
            #expect(decoded == "Zoë pinged you 👋")
        }
    }

    @Test func sendsTheAccessTokenForProtectedTopics() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.fakeNtfy(recorder: recorder)) { port in
            let anonymous = NtfyChannel(configuration: .init(baseURL: "http://127.0.0.1:\(port)"), httpClient: .shared)
            await #expect(throws: DeliveryFailure.permanent("The ntfy server answered with an error.")) {
                try await anonymous.send(.fixture(channel: .ntfy, address: "private"))
            }
            let withToken = NtfyChannel(
                configuration: .init(baseURL: "http://127.0.0.1:\(port)", accessToken: "tk_secret"), httpClient: .shared)
            let receipt = try await withToken.send(.fixture(channel: .ntfy, address: "private"))
            #expect(receipt.status == .sent)
            #expect(await recorder.values.last?.header("Authorization") == "Bearer tk_secret")
        }
    }

    @Test func rejectsTopicsNtfyWouldNotAccept() async {
        let channel = NtfyChannel(configuration: .init(baseURL: "http://127.0.0.1:9"), httpClient: .shared)
        await #expect(throws: DeliveryFailure.permanent("The ntfy topic is not valid.")) {
            try await channel.send(.fixture(channel: .ntfy, address: "../admin"))
        }
    }
}
