import LifeSignalTestSupport
import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalDelivery
import LifeSignalModels
import Testing

@Suite struct TwilioChannelTests {
    static let accountSID = "AC0123456789abcdef0123456789abcdef"
    static let authToken = "tw-token"

    /// A Twilio look-alike: checks basic auth, records the form, answers like Twilio does.
    static func fakeTwilio(recorder: Recorder<ReceivedRequest>) -> Router<BasicRequestContext> {
        let router = Router()
        let expectedAuth = "Basic " + Data("\(accountSID):\(authToken)".utf8).base64EncodedString()
        router.post("2010-04-01/Accounts/:account/:resource") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let received = ReceivedRequest(request, body: body)
            await recorder.append(received)
            guard received.header("Authorization") == expectedAuth else {
                return json(.unauthorized, #"{"code":20003,"message":"Authenticate","status":401}"#)
            }
            switch received.form["To"] {
            case "+15550000400":
                return json(.badRequest, #"{"code":21211,"message":"The 'To' number is not a valid phone number.","status":400}"#)
            case "+15550000503":
                return json(.serviceUnavailable, #"{"code":20503,"message":"Service unavailable","status":503}"#)
            default:
                let resource = context.parameters.get("resource") ?? ""
                let sid = resource == "Calls.json" ? "CA00000000000000000000000000000001" : "SM00000000000000000000000000000001"
                return json(.created, #"{"sid":"\#(sid)","status":"queued"}"#)
            }
        }
        return router
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    func channel(_ mode: TwilioChannel.Mode, port: Int) -> TwilioChannel {
        TwilioChannel(
            mode,
            configuration: .init(
                baseURL: "http://127.0.0.1:\(port)", accountSID: Self.accountSID, authToken: Self.authToken,
                from: "+15557654321", statusCallbackURL: "https://lifesignal.example/v1/providers/twilio/status"),
            httpClient: .shared)
    }

    @Test func sendsAnSMSAndReturnsTheMessageSID() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.fakeTwilio(recorder: recorder)) { port in
            let message = OutgoingMessage.fixture(channel: .sms, address: "+1 (555) 123-4567")
            let receipt = try await channel(.sms, port: port).send(message)
            #expect(receipt == .sent(providerID: "SM00000000000000000000000000000001"))

            let request = try #require(await recorder.values.first)
            #expect(request.path == "/2010-04-01/Accounts/\(Self.accountSID)/Messages.json")
            #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(
                request.form == [
                    "To": "+15551234567", "From": "+15557654321",
                    "Body":
                        "Alice missed her check-in\nAlice has not checked in since 08:00. Please call her.\nhttps://lifesignal.example/incidents/1\nReply 1 or ON IT to say you're on it.",
                    "StatusCallback": "https://lifesignal.example/v1/providers/twilio/status?delivery=\(message.deliveryID)",
                ])
        }
    }

    @Test func placesAVoiceCallThatReadsTheMessage() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.fakeTwilio(recorder: recorder)) { port in
            let message = OutgoingMessage.fixture(channel: .voice, address: "+15551234567", title: "Bob & Alice <3", urgent: false)
            let voice = channel(.voice, port: port)
            #expect(voice.kind == .voice)
            let receipt = try await voice.send(message)
            #expect(receipt == .sent(providerID: "CA00000000000000000000000000000001"))

            let request = try #require(await recorder.values.first)
            #expect(request.path.hasSuffix("/Calls.json"))
            #expect(
                request.form["Twiml"]
                    == #"<?xml version="1.0" encoding="UTF-8"?><Response><Say>Bob &amp; Alice &lt;3. Alice has not checked in since 08:00. Please call her.</Say></Response>"#
            )
            #expect(request.form["To"] == "+15551234567")
            // The call's status callback names its delivery, as a text's does.
            #expect(
                request.form["StatusCallback"] == "https://lifesignal.example/v1/providers/twilio/status?delivery=\(message.deliveryID)")
        }
    }

    /// The delivery id joins a callback URL that already has a query.
    @Test func theCallbackURLCarriesTheDeliveryID() {
        let id = DeliveryID(UUID(uuidString: "00000000-0000-0000-0000-000000000042")!)
        #expect(TwilioChannel.callbackURL("https://x.example/cb", deliveryID: id) == "https://x.example/cb?delivery=\(id)")
        #expect(TwilioChannel.callbackURL("https://x.example/cb?a=1", deliveryID: id) == "https://x.example/cb?a=1&delivery=\(id)")
        #expect(TwilioChannel.callbackURL("https://x.example/cb", deliveryID: nil) == "https://x.example/cb")
    }

    @Test func textsSayHowToAnswerThemOnlyWhenAReplyDoesSomething() {
        #expect(
            TwilioChannel.smsText(.fixture(channel: .sms, address: "+15551234567", kind: .reminder, link: nil))
                == "Alice missed her check-in\nAlice has not checked in since 08:00. Please call her.\nReply OK to check in.")
        #expect(
            TwilioChannel.smsText(.fixture(channel: .sms, address: "+15551234567", kind: .manualAlert, link: nil))
                .hasSuffix("\nReply 1 or ON IT to say you're on it."))
        for kind in [LifeSignalModels.Notification.Kind.drill, .pingReceived, .incidentResolved, .channelCode] {
            #expect(!TwilioChannel.smsText(.fixture(channel: .sms, address: "+15551234567", kind: kind)).contains("Reply"))
        }
    }

    /// The person's own messages carry her prompts, never a responder's.
    @Test func herOwnMessagesCarryHerPrompts() {
        #expect(TwilioChannel.replyHint(.alertSent) == "Reply OK if you're safe.")
        #expect(TwilioChannel.replyHint(.nonResponsive) == "Reply OK to check in.")
        #expect(TwilioChannel.keypressPrompt(.alertSent) == "Press 1 if you're safe, press 9 to keep your alert on.")
        #expect(TwilioChannel.keypressPrompt(.nonResponsive) == "Press 1 if you're OK.")
        let call = TwilioChannel.twiml(
            .fixture(channel: .voice, address: "+15551234567", kind: .alertSent), voice: nil, keypressURL: "https://x.test/keys")
        #expect(call.contains("<Say>Press 1 if you&apos;re safe, press 9 to keep your alert on.</Say>"))
        #expect(!call.contains("on it"))
    }

    @Test func callsDoNotReadEmojiAloud() {
        let twiml = TwilioChannel.twiml(
            .fixture(
                channel: .voice, address: "+15551234567", kind: .manualAlert, title: "🆘 Ada needs help",
                body: "Ada raised an emergency alert 👍🏽.", urgent: false),
            voice: nil, keypressURL: nil)
        #expect(twiml.contains("<Say>Ada needs help. Ada raised an emergency alert.</Say>"))
        #expect(TwilioChannel.speakable("Café — 09:30, #1 ✅") == "Café — 09:30, #1")
    }

    @Test func aReminderCallAsksForAKeyAndPostsItBack() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.fakeTwilio(recorder: recorder)) { port in
            let voice = TwilioChannel(
                .voice,
                configuration: .init(
                    baseURL: "http://127.0.0.1:\(port)", accountSID: Self.accountSID, authToken: Self.authToken,
                    from: "+15557654321", keypressCallbackURL: "https://lifesignal.example/callbacks/twilio/voice?a=1&b=2"),
                httpClient: .shared)
            _ = try await voice.send(
                .fixture(
                    channel: .voice, address: "+15551234567", kind: .reminder, title: "Time to check in",
                    body: "Your check-in is due today at 21:30.", urgent: false))
            _ = try await voice.send(.fixture(channel: .voice, address: "+15551234567", kind: .drill, urgent: false))

            let requests = await recorder.values
            #expect(
                requests.first?.form["Twiml"] == #"<?xml version="1.0" encoding="UTF-8"?><Response>"#
                    + #"<Gather numDigits="1" timeout="10" method="POST" action="https://lifesignal.example/callbacks/twilio/voice?a=1&amp;b=2">"#
                    + "<Say>Time to check in. Your check-in is due today at 21:30.</Say>"
                    + #"<Pause length="1"/><Say>Press 1 if you&apos;re OK.</Say><Pause length="2"/><Say>Press 1 if you&apos;re OK.</Say>"#
                    + "</Gather><Say>No key was pressed. Goodbye.</Say></Response>")
            // Nothing to answer in a drill: the call only reads it.
            #expect(requests.last?.form["Twiml"]?.contains("Gather") == false)
        }
    }

    @Test func providerErrorsAreClassified() async throws {
        let recorder = Recorder<ReceivedRequest>()
        try await withLocalServer(Self.fakeTwilio(recorder: recorder)) { port in
            await #expect(throws: DeliveryFailure.permanent("The phone number is not valid.")) {
                try await channel(.sms, port: port).send(.fixture(channel: .sms, address: "+15550000400"))
            }
            await #expect(throws: DeliveryFailure.transient("The SMS provider answered with an error.")) {
                try await channel(.sms, port: port).send(.fixture(channel: .sms, address: "+15550000503"))
            }
            let wrongToken = TwilioChannel(
                .sms,
                configuration: .init(
                    baseURL: "http://127.0.0.1:\(port)", accountSID: Self.accountSID, authToken: "nope", from: "+15557654321"),
                httpClient: .shared)
            await #expect(throws: DeliveryFailure.permanent("The SMS provider answered with an error.")) {
                try await wrongToken.send(.fixture(channel: .sms, address: "+15551234567"))
            }
        }
    }

    @Test(arguments: ["alice@example.com", "5551234567", "+0123456", "+1555abc4567", ""])
    func rejectsAddressesThatAreNotPhoneNumbers(address: String) async throws {
        // Never reaches the network: port 9 (discard) is not listened on.
        do {
            _ = try await channel(.sms, port: 9).send(.fixture(channel: .sms, address: address))
            Issue.record("expected a permanent failure")
        } catch {
            #expect(!error.isTransient)
            #expect(error.reason == "The phone number is not in international format.")
            if !address.isEmpty { #expect(!error.reason.contains(address)) }  // reasons never carry the address
        }
    }
}

@Suite struct TwilioCallbackTests {
    @Test func signatureMatchesTwilioDocumentationExample() {
        // The example from Twilio's security docs, also checked with twilio-python's RequestValidator.
        let url = "https://mycompany.com/myapp.php?foo=1&bar=2"
        let parameters = [
            ("Digits", "1234"), ("To", "+18005551212"), ("From", "+12349013030"),
            ("Caller", "+12349013030"), ("CallSid", "CA1234567890ABCDE"),
        ]
        #expect(TwilioSignature.compute(url: url, parameters: parameters, authToken: "12345") == "0/KCTR6DLpKmkAf8muzZqo1nDgQ=")
        #expect(TwilioSignature.isValid(signature: "0/KCTR6DLpKmkAf8muzZqo1nDgQ=", url: url, parameters: parameters, authToken: "12345"))
        #expect(!TwilioSignature.isValid(signature: "0/KCTR6DLpKmkAf8muzZqo1nDgQ=", url: url, parameters: parameters, authToken: "54321"))
        #expect(
            !TwilioSignature.isValid(
                signature: "0/KCTR6DLpKmkAf8muzZqo1nDgQ=", url: url + "&x=1", parameters: parameters, authToken: "12345"))
        #expect(!TwilioSignature.isValid(signature: "not base64!", url: url, parameters: parameters, authToken: "12345"))
    }

    @Test func signatureOfARawStatusCallbackBody() {
        // Expected value from twilio-python's RequestValidator.compute_signature.
        let body =
            "MessageSid=SM0123456789abcdef0123456789abcdef&MessageStatus=delivered&AccountSid=AC123&To=%2B15551234567&ApiVersion=2010-04-01"
        #expect(
            TwilioSignature.isValid(
                signature: "THOCO33Mo/sEuztUK6MLMVOGkMU=", url: "https://lifesignal.example/v1/providers/twilio/status",
                formBody: body, authToken: "12345"))
    }

    @Test(arguments: [
        ("MessageSid=SM1&MessageStatus=delivered", "SM1", Delivery.Status.delivered, nil as String?),
        ("MessageSid=SM1&MessageStatus=sent", "SM1", .sent, nil),
        ("MessageSid=SM1&MessageStatus=undelivered&ErrorCode=30003", "SM1", .failed, "The text message could not be delivered."),
        ("CallSid=CA1&CallStatus=completed", "CA1", .delivered, nil),
        ("CallSid=CA1&CallStatus=ringing", "CA1", .sent, nil),
        ("CallSid=CA1&CallStatus=no-answer", "CA1", .failed, "Nobody answered the call."),
        ("CallSid=CA1&CallStatus=busy", "CA1", .failed, "The line was busy."),
    ])
    func statusCallbacksMapToDeliveryStatus(body: String, sid: String, status: Delivery.Status, reason: String?) throws {
        let callback = try #require(TwilioStatusCallback(formBody: body))
        #expect(callback.providerID == sid)
        #expect(callback.status == status)
        #expect(callback.reason == reason)
    }

    @Test func unknownOrIncompleteCallbacksAreRejected() {
        #expect(TwilioStatusCallback(formBody: "MessageStatus=delivered") == nil)
        #expect(TwilioStatusCallback(formBody: "MessageSid=SM1&MessageStatus=teleported") == nil)
        #expect(TwilioStatusCallback(formBody: "MessageSid=SM1&MessageStatus=undelivered&ErrorCode=30003")?.errorCode == "30003")
    }
}
