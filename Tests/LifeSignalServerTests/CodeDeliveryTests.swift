import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalServer
import LifeSignalStore
import LifeSignalTestSupport
import Logging
import NIOCore
import Testing

/// Sign-in codes through the Twilio code sender, against the local fake Twilio.
@Suite struct CodeDeliveryTests {
    static let publicURL = "https://lifesignal.example"

    /// SQLite always; PostgreSQL too when `LIFESIGNAL_TEST_POSTGRES_URL` is set (the limits
    /// rely on the store rolling back a transaction, which each database does its own way).
    typealias Backend = TestBackend

    /// The server's router with the real Twilio code sender pointed at the fake.
    func withServer(
        _ backend: Backend = .sqlite, _ body: @Sendable (FakeTwilio, any TestClientProtocol, CodeCall) async throws -> Void
    ) async throws {
        let fake = FakeTwilio()
        try await fake.run { base in
            let codeCall = CodeCall(authToken: FakeTwilio.authToken, publicBaseURL: Self.publicURL)
            // Twilio configured as `serve` reads it (which also serves the code-call replay route),
            // and the production sender pointed at the fake, on the world's clock.
            let (world, drop) = try await TestWorld.on(
                backend,
                server: { server in
                    server.publicBaseURL = Self.publicURL
                    server.channels = ChannelSettings(environment: [
                        "LIFESIGNAL_TWILIO_ACCOUNT_SID": FakeTwilio.accountSID, "LIFESIGNAL_TWILIO_AUTH_TOKEN": FakeTwilio.authToken,
                        "LIFESIGNAL_TWILIO_FROM": FakeTwilio.from, "LIFESIGNAL_TWILIO_BASE_URL": base,
                    ])
                },
                dependencies: { dependencies in
                    let clock = dependencies.clock!
                    dependencies.codeSender = .twilio(
                        .init(baseURL: base, accountSID: FakeTwilio.accountSID, authToken: FakeTwilio.authToken, from: FakeTwilio.from),
                        codeCall: codeCall, httpClient: .shared, now: { clock.now })
                })
            do {
                try await world.test { client in try await body(fake, client, codeCall) }
            } catch {
                await drop()
                throw error
            }
            await drop()
        }
    }

    static func codeInText(_ text: String?) -> String? {
        guard let text, let range = text.range(of: #"\d{6}"#, options: .regularExpression) else { return nil }
        return String(text[range])
    }

    /// The digits a call's TwiML reads out, in order.
    static func spokenDigits(_ twiml: String) -> String {
        let regex = #/<Say>(\d)\.</Say>/#
        return twiml.matches(of: regex).map { String($0.output.1) }.joined()
    }

    @Test(arguments: Backend.all)
    func aSignInCodeGoesOutAsATextAndSignsIn(backend: Backend) async throws {
        try await withServer(backend) { fake, client, _ in
            let phone = "+15551230001"
            let sent = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: phone))
            #expect(sent.status == .ok)
            let text = try #require(fake.requests.first)
            #expect(fake.requests.count == 1)
            #expect(text.resource == "Messages.json")
            #expect(text.form["To"] == phone)
            #expect(text.form["From"] == FakeTwilio.from)
            #expect(text.form["StatusCallback"] == nil, "a code is not a delivery: no status callback")
            let code = try #require(Self.codeInText(text.form["Body"]))
            let verified = try await client.call(Operations.verifySignInCode, json: VerifyCodeBody(phone: phone, code: code))
            #expect(verified.status == .created)
        }
    }

    @Test(arguments: Backend.all)
    func aLandlineGetsACallThatReadsTheCodeAndRepeatsIt(backend: Backend) async throws {
        try await withServer(backend) { fake, client, codeCall in
            let phone = FakeTwilio.landline
            let sent = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: phone))
            #expect(sent.status == .ok, "\(String(decoding: sent.body, as: UTF8.self))")
            #expect(fake.requests.map(\.resource) == ["Messages.json", "Calls.json"])
            let twiml = try #require(fake.requests.last?.form["Twiml"])
            #expect(twiml.contains(#"<Gather numDigits="1""#))
            #expect(twiml.contains("<Say>Press any key to hear your code again.</Say></Gather>"))
            let code = Self.spokenDigits(twiml)
            #expect(code.count == 6)
            #expect(twiml.contains(#"<Pause length="1"/>"#))

            // The key press: Twilio posts to the Gather's action, signed; the answer reads the code again.
            let action = try #require(twiml.firstMatch(of: #/action="([^"]+)"/#)).output.1
            let url = String(action).replacingOccurrences(of: "&amp;", with: "&")
            #expect(url.hasPrefix(codeCall.url + "?t="))
            let token = String(url.dropFirst((codeCall.url + "?t=").count))
            #expect(!token.contains(code), "the code travels sealed")
            let parameters = [("CallSid", "CA00000000000000000000000000000001"), ("Digits", "5")]
            let signature = TwilioSignature.compute(url: url, parameters: parameters, authToken: FakeTwilio.authToken)
            let replay = try await client.execute(
                uri: CodeCall.path + "?t=" + token, method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("X-Twilio-Signature")!: signature],
                body: ByteBuffer(string: "CallSid=CA00000000000000000000000000000001&Digits=5")
            ) { response in (response.status, String(buffer: response.body)) }
            #expect(replay.0 == .ok)
            #expect(Self.spokenDigits(replay.1) == code)
            #expect(replay.1.contains("Press any key to hear your code again."))

            let unsigned = try await client.execute(
                uri: CodeCall.path + "?t=" + token, method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "Digits=5")
            ) { $0.status }
            #expect(unsigned == .forbidden)

            let verified = try await client.call(Operations.verifySignInCode, json: VerifyCodeBody(phone: phone, code: code))
            #expect(verified.status == .created)
        }
    }

    @Test func askingForACallPlacesOneWithoutATextFirst() async throws {
        try await withServer { fake, client, _ in
            let sent = try await client.call(
                Operations.requestSignInCode, raw: #"{"phone":"+15551230002","via":"voice"}"#)
            #expect(sent.status == .ok)
            #expect(fake.requests.map(\.resource) == ["Calls.json"])
            #expect(Self.spokenDigits(fake.requests[0].form["Twiml"] ?? "").count == 6)

            let wrong = try await client.call(Operations.requestSignInCode, raw: #"{"phone":"+15551230003","via":"pigeon"}"#)
            #expect(wrong.status == .badRequest)
            #expect(wrong.error?.field == "via")
        }
    }

    @Test(arguments: Backend.all)
    func aProviderFailureIsAClearErrorAndCostsNoLimit(backend: Backend) async throws {
        try await withServer(backend) { fake, client, _ in
            let phone = FakeTwilio.troubled
            // More failures than the 5 codes a number may have each hour, and at the same
            // instant: neither the hourly limit nor the once-a-minute resend is spent.
            for _ in 0..<7 {
                let failed = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: phone))
                #expect(failed.status == .serviceUnavailable)
                #expect(failed.error?.code == .codeNotSent)
                #expect(failed.error?.message == "We couldn't send a text to that number. Check it, or ask for a call instead.")
            }
            #expect(fake.requests.allSatisfy { $0.resource == "Messages.json" }, "a provider outage is not a landline: no call")

            fake.outage.withLock { $0 = false }
            let sent = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: phone))
            #expect(sent.status == .ok)
            let code = try #require(Self.codeInText(fake.requests.last?.form["Body"]))
            // Now it counts: the resend slot is taken.
            let again = try await client.call(Operations.requestSignInCode, json: PhoneBody(phone: phone))
            #expect(again.error?.code == .codeRecentlySent)
            let verified = try await client.call(Operations.verifySignInCode, json: VerifyCodeBody(phone: phone, code: code))
            #expect(verified.status == .created)
        }
    }

    @Test func aCallThatFailsSaysSo() async throws {
        try await withServer { _, client, _ in
            let failed = try await client.call(
                Operations.requestSignInCode, raw: #"{"phone":"\#(FakeTwilio.troubled)","via":"voice"}"#)
            #expect(failed.status == .serviceUnavailable)
            #expect(failed.error?.message == "We couldn't call that number. Check it, or ask for a text instead.")
        }
    }

    /// A new number's code is in the language the browser or app asks for: a German text, a
    /// French call read by the French voice, and its replay in French too.
    @Test func aCodeIsInTheLanguageAskedFor() async throws {
        try await withServer { fake, client, codeCall in
            func ask(_ phone: String, via: String, language: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/v1/auth/code", method: .post,
                    headers: [.contentType: "application/json", .acceptLanguage: language],
                    body: ByteBuffer(string: #"{"phone":"\#(phone)","via":"\#(via)"}"#)
                ) { $0.status }
            }
            #expect(try await ask("+15551230011", via: "sms", language: "de-AT,de;q=0.9,en;q=0.5") == .ok)
            let text = try #require(fake.requests.last?.form["Body"])
            let code = try #require(Self.codeInText(text))
            #expect(text == "Ihr LifeSignal-Code ist \(code). Geben Sie ihn an niemanden weiter.")
            #expect(TextMessage.encoding(of: text) == .gsm7)

            #expect(try await ask("+15551230012", via: "voice", language: "fr-FR") == .ok)
            let twiml = try #require(fake.requests.last?.form["Twiml"])
            let french = #"<Say voice="Polly.Lea" language="fr-FR">"#
            #expect(twiml.contains(french + "Ici LifeSignal. Votre code est :</Say>"), "\(twiml)")
            #expect(twiml.contains(french + "Au revoir.</Say></Response>"))
            let digits = twiml.matches(of: #/<Say[^>]*>(\d)\.</Say>/#).map { String($0.output.1) }.joined()
            #expect(digits.count == 6)
            let token = String(try #require(twiml.firstMatch(of: #/\?t=([A-Za-z0-9_-]+)/#)).output.1)
            let replay = try #require(codeCall.sealed(token: token, now: Date(timeIntervalSince1970: 0)))
            #expect(replay.code == digits && replay.language == Language("fr-FR"))
            #expect(twiml.contains(french + "Appuyez sur n&apos;importe quelle touche pour réentendre votre code.</Say></Gather>"))

            // A language without a voice is read in English.
            #expect(CodeCall.spoken(Language("ja")!) == .english)

            // The web's sign-in form: a new number's code in the page's language.
            let cookie = try await client.execute(uri: "/signin", method: .get, headers: [.acceptLanguage: "es"]) {
                try #require($0.headers[values: .setCookie].first { $0.hasPrefix("ls_csrf=") })
            }
            let csrf = String(cookie.dropFirst("ls_csrf=".count).prefix { $0 != ";" })
            let signIn = try await client.execute(
                uri: "/signin", method: .post,
                headers: [
                    .acceptLanguage: "es", .cookie: "ls_csrf=\(csrf)", .contentType: "application/x-www-form-urlencoded",
                ],
                body: ByteBuffer(string: "_csrf=\(csrf)&phone=%2B15551230013")
            ) { $0.status }
            #expect(signIn == .seeOther)
            let spanish = try #require(fake.requests.last?.form["Body"])
            #expect(spanish.hasPrefix("Su código de LifeSignal es"), "\(spanish)")
        }
    }

    @Test func aSealedCodeOpensOnlyWithItsKeyAndInTime() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let call = CodeCall(authToken: "token-a", publicBaseURL: Self.publicURL)
        let twiml = call.twiml(code: "042917", now: now)
        #expect(Self.spokenDigits(twiml) == "042917")
        let other = CodeCall(authToken: "token-b", publicBaseURL: Self.publicURL)
        let token = String(try! #require(twiml.firstMatch(of: #/\?t=([A-Za-z0-9_-]+)/#)).output.1)
        #expect(call.code(token: token, now: now) == "042917")
        #expect(call.code(token: token, now: now.addingTimeInterval(CodeCall.replayFor + 1)) == nil)
        #expect(other.code(token: token, now: now) == nil)
        #expect(call.code(token: "AAAA", now: now) == nil)
    }
}
