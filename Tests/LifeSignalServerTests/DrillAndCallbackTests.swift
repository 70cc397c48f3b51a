import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
@_spi(Testing) import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalServer
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import NIOCore
import Testing

@Suite("Preview, drills and provider callbacks")
struct DrillAndCallbackTests {
    @Test func previewAndDrillOverTheAPI() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900001")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700900002")
            try await client.addProvedChannel(world, bob, ChannelRegistration(kind: .email, address: "bob@example.com"))

            // No responders yet: a drill is a clear conflict.
            let lonely = try await client.call(Operations.runDrill, token: ada)
            #expect(lonely.status == .conflict)
            #expect(lonely.error?.code == .noResponders)

            try await client.link(responder: bob, dependent: ada)
            #expect(try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID()))).status.code < 300)

            let preview = try await client.call(Operations.previewTimeline, token: ada)
            #expect(preview.status == .ok)
            let steps = try preview.decode([PreviewStep].self)
            #expect(steps.map(\.kind).prefix(3) == [.reminder, .lastCall, .incident])
            #expect(steps[2].summary == "Alert Bob Tester by email")
            // An alert always ends with the default channel to the verified number.
            #expect(steps[2].responders.first?.channels == [.email, .log])

            let drill = try await client.call(Operations.runDrill, token: ada)
            #expect(drill.status == .created)
            let report = try drill.decode(DrillReport.self)
            #expect(report.recipients.count == 1)
            #expect(report.recipients.first?.deliveries.map(\.channel) == [.email])

            let again = try await client.call(Operations.getDrill, ["id": report.id.description], token: ada)
            #expect(again.status == .ok)
            #expect(try again.decode(DrillReport.self).id == report.id)
            #expect(try await client.call(Operations.getDrill, ["id": report.id.description], token: bob).status == .notFound)
            #expect(try await client.call(Operations.getDrill, ["id": "nope"], token: ada).status == .badRequest)
        }
    }

    @Test func twilioStatusCallbackIsSignedAndUpdatesTheDelivery() async throws {
        let base = "https://lifesignal.example"
        let world = try await TestWorld(server: { server in
            server.publicBaseURL = base
            server.channels = ChannelSettings(environment: ["LIFESIGNAL_TWILIO_AUTH_TOKEN": "twilio-secret"])
        })
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700900001")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+447700900002")
            #expect(
                try await client.call(Operations.addChannel, token: bob, json: ChannelRegistration(kind: .sms, address: "+447700900002"))
                    .status == .created)
            try await client.link(responder: bob, dependent: ada)
            let report = try await client.call(Operations.runDrill, token: ada).decode(DrillReport.self)
            let delivery = try #require(report.recipients.first?.deliveries.first)
            // The adapter stored Twilio's SID when Twilio accepted the message.
            try await world.core.storeForTesting.write { tx in
                try await tx.deliveries.update(
                    delivery.id, status: .sent, reason: nil, attempts: 1, providerID: "SM123", nextAttemptAt: nil, at: world.clock.now)
            }

            func post(_ body: String, signature: String?, uri: String = "/callbacks/twilio") async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                if let signature { headers[HTTPField.Name(TwilioSignature.headerName)!] = signature }
                return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) {
                    $0.status
                }
            }
            let params = [("MessageSid", "SM123"), ("MessageStatus", "delivered")]
            let body = FormURLEncoding.encode(params)
            #expect(try await post(body, signature: nil) == .forbidden)
            #expect(try await post(body, signature: "bogus") == .forbidden)
            let signature = TwilioSignature.compute(url: base + "/callbacks/twilio", parameters: params, authToken: "twilio-secret")
            #expect(try await post(body, signature: signature) == .noContent)
            // The callback URL the adapter gives Twilio names the delivery; Twilio signs it,
            // query and all, and a signature over the bare URL does not pass for it.
            let named = TwilioChannel.callbackURL("/callbacks/twilio", deliveryID: delivery.id)
            #expect(try await post(body, signature: signature, uri: named) == .forbidden)
            let namedSignature = TwilioSignature.compute(url: base + named, parameters: params, authToken: "twilio-secret")
            #expect(try await post(body, signature: namedSignature, uri: named) == .noContent)

            let after = try await client.call(Operations.getDrill, ["id": report.id.description], token: ada).decode(DrillReport.self)
            #expect(after.recipients.first?.deliveries.first?.status == .delivered)

            // An unknown SID is acknowledged and ignored.
            let other = [("MessageSid", "SM999"), ("MessageStatus", "failed")]
            #expect(
                try await post(
                    FormURLEncoding.encode(other),
                    signature: TwilioSignature.compute(
                        url: base + "/callbacks/twilio", parameters: other, authToken: "twilio-secret")) == .noContent)
        }
    }

    @Test func withoutATwilioTokenEveryCallbackIsRefused() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let body = "MessageSid=SM1&MessageStatus=delivered"
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            #expect(
                try await client.execute(uri: "/callbacks/twilio", method: .post, headers: headers, body: ByteBuffer(string: body)) {
                    $0.status
                } == .forbidden)
            // A signature made with a guessed token is no better.
            headers[HTTPField.Name(TwilioSignature.headerName)!] = try TwilioSignature.compute(
                url: "http://localhost:8080/callbacks/twilio", parameters: [("MessageSid", "SM1"), ("MessageStatus", "delivered")],
                authToken: "")
            #expect(
                try await client.execute(uri: "/callbacks/twilio", method: .post, headers: headers, body: ByteBuffer(string: body)) {
                    $0.status
                } == .forbidden)
        }
    }
}
