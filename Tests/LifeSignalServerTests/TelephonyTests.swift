import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LifeSignalAPI
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalServer
import LifeSignalStore
import LifeSignalTestSupport
import Logging
import NIOCore
import Testing

/// LifeSignal without a smartphone, end to end: the production Twilio adapters send real
/// HTTP to the local fake Twilio, and Twilio's side (texts people send, keys they press, call
/// outcomes) comes back as requests signed with the auth token, as Twilio signs them.
@Suite("Texts and calls through Twilio")
struct TelephonyTests {
    static let publicURL = "https://lifesignal.example"

    /// A server whose default channel texts the verified number, a worker sending through the
    /// fake, and helpers that post what Twilio would.
    struct Phone: Sendable {
        let world: TestWorld
        let fake: FakeTwilio
        let client: any TestClientProtocol
        let worker: OutboxWorker

        /// Ada (+15551230001) and Bob (+15551230002), Bob watching over Ada, with what linking
        /// them sent already out; their tokens.
        func adaWatchedByBob() async throws -> (ada: String, bob: String) {
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+15551230001")
            let (bob, _) = try await client.signUp(world, first: "Bob", phone: "+15551230002")
            try await client.link(responder: bob, dependent: ada)
            try await deliver()
            return (ada, bob)
        }

        /// `token`'s person checks in now (so a jump of the clock is not a missed check-in).
        func checkIn(_ token: String) async throws {
            let body = CheckInBody(id: CheckInID(UUID()), clientAt: world.clock.now)
            #expect(try await client.call(Operations.checkIn, token: token, json: body).status == .created)
        }

        /// Sends everything due, like the delivery worker's round.
        func deliver() async throws { while try await worker.runOnce() > 0 {} }

        /// Posts a form to a Twilio route, signed (or with `signature`), and returns the answer.
        func post(_ path: String, _ parameters: [(String, String)], signature: String? = nil) async throws -> (HTTPResponse.Status, String)
        {
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            headers[HTTPField.Name(TwilioSignature.headerName)!] =
                signature
                ?? TwilioSignature.compute(url: TelephonyTests.publicURL + path, parameters: parameters, authToken: FakeTwilio.authToken)
            return try await client.execute(
                uri: path, method: .post, headers: headers, body: ByteBuffer(string: FormURLEncoding.encode(parameters))
            ) { ($0.status, String(buffer: $0.body)) }
        }

        /// A text `from` sends to LifeSignal's number; returns the reply LifeSignal texts back.
        func text(from: String, _ body: String, id: String) async throws -> String {
            let (status, twiml) = try await post(
                "/callbacks/twilio/sms",
                [
                    ("AccountSid", FakeTwilio.accountSID), ("Body", body), ("From", from), ("MessageSid", id),
                    ("NumMedia", "0"), ("To", FakeTwilio.from),
                ])
            #expect(status == .ok)
            let prefix = #"<?xml version="1.0" encoding="UTF-8"?><Response><Message>"#
            #expect(twiml.hasPrefix(prefix) && twiml.hasSuffix("</Message></Response>"), "\(twiml)")
            let escaped = String(twiml.dropFirst(prefix.count).dropLast("</Message></Response>".count))
            return escaped.replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&amp;", with: "&")
        }

        /// A key pressed during call `callID`; returns what the call says next.
        func press(_ digits: String, on callID: String) async throws -> String {
            let (status, twiml) = try await post(
                "/callbacks/twilio/voice",
                [
                    ("AccountSid", FakeTwilio.accountSID), ("CallSid", callID), ("Digits", digits), ("From", FakeTwilio.from),
                ])
            #expect(status == .ok)
            return twiml
        }

        /// Twilio's status callback for a call.
        func callStatus(_ callID: String, _ status: String) async throws {
            let (answer, _) = try await post("/callbacks/twilio", [("CallSid", callID), ("CallStatus", status)])
            #expect(answer == .noContent)
        }

        /// The SIDs the fake gave, in order, to the requests after the first `after` that `which` selects.
        func sids(after: Int = 0, _ which: (FakeTwilio.Received) -> Bool) -> [String] {
            fake.requests.dropFirst(after).filter(which).compactMap(\.sid)
        }
    }

    func withPhone(_ body: @Sendable (Phone) async throws -> Void) async throws {
        let fake = FakeTwilio()
        try await fake.run { base in
            let twilio = ChannelSettings(environment: [
                "LIFESIGNAL_TWILIO_ACCOUNT_SID": FakeTwilio.accountSID, "LIFESIGNAL_TWILIO_AUTH_TOKEN": FakeTwilio.authToken,
                "LIFESIGNAL_TWILIO_FROM": FakeTwilio.from, "LIFESIGNAL_TWILIO_BASE_URL": base,
            ])
            let world = try await TestWorld(
                configuration: ServiceConfiguration(defaultChannel: .sms, publicBaseURL: Self.publicURL),
                server: { server in
                    server.publicBaseURL = Self.publicURL
                    server.channels = twilio
                })
            let registry = try twilio.registry(httpClient: .shared, publicBaseURL: Self.publicURL, logger: Logger(label: "telephony"))
            let clock = world.clock
            let worker = OutboxWorker(
                store: StoreOutbox(core: world.core), registry: registry, owner: "telephony", now: { clock.now })
            try await world.test { client in
                try await body(Phone(world: world, fake: fake, client: client, worker: worker))
            }
        }
    }

    @Test func sosByTextReachesTheResponderWhoAnswersOnIt() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (ada, _) = try await phone.adaWatchedByBob()

            // An unsigned or mis-signed text changes nothing.
            let forged = [("Body", "SOS"), ("From", "+15551230001"), ("MessageSid", "SMforged")]
            #expect(try await phone.post("/callbacks/twilio/sms", forged, signature: "AAAA").0 == .forbidden)
            #expect(
                try await phone.post(
                    "/callbacks/twilio/sms", forged,
                    signature: TwilioSignature.compute(
                        url: Self.publicURL + "/callbacks/twilio/voice", parameters: forged, authToken: FakeTwilio.authToken)
                ).0 == .forbidden)
            #expect(try await phone.post("/callbacks/twilio/sms", [("Body", "OK"), ("MessageSid", "SM1")]).0 == .badRequest)

            // SOS, confirmed by a second SOS.
            #expect(
                try await phone.text(from: "+15551230001", "SOS", id: "SMin1")
                    == "Text SOS again within 5 minutes to alert Bob Tester. If you are in danger, call your local emergency number.")
            #expect(try await client.call(Operations.getStatus, token: ada).decode(CheckInStatus.self).openIncident == nil)
            #expect(
                try await phone.text(from: "+15551230001", "sos", id: "SMin2")
                    == "Your emergency alert is going to Bob Tester. We'll text you when someone is on it. When you're safe, text SAFE twice to end it."
            )

            // Bob is texted, with how to answer.
            let before = phone.fake.requests.count
            try await phone.deliver()
            let alert = try #require(phone.fake.requests.dropFirst(before).first { $0.form["To"] == "+15551230002" })
            #expect(alert.resource == "Messages.json")
            #expect(alert.form["Body"]?.hasSuffix("Reply 1 or ON IT to say you're on it.") == true)
            // Its status callback names the delivery it is: a copy sent twice shows in Twilio's records.
            let callback = try #require(alert.form["StatusCallback"])
            let prefix = Self.publicURL + "/callbacks/twilio?delivery="
            #expect(callback.hasPrefix(prefix))
            let named = try #require(DeliveryID(string: String(callback.dropFirst(prefix.count))))
            let delivery = try await phone.world.store.read { try await $0.deliveries.delivery(named) }
            #expect(delivery?.delivery.address == "+15551230002")

            // Bob answers "on it"; Ada's status and her next text say so.
            let onIt = try await phone.text(from: "+15551230002", "On it!", id: "SMin3")
            #expect(onIt.hasPrefix("Thanks. Ada Tester and the others are being told you're on it."))
            let status = try await client.call(Operations.getStatus, token: ada).decode(CheckInStatus.self)
            #expect(status.openIncident?.acknowledgedByName == "Bob Tester")
            try await phone.deliver()
            let toAda = phone.fake.requests.last { $0.form["To"] == "+15551230001" }
            #expect(toAda?.form["Body"]?.hasPrefix("Bob Tester is on it") == true)

            // Ada clears it and checks in by text.
            #expect(try await client.call(Operations.clearAlert, token: ada).status == .ok)
            phone.world.clock.advance(by: 60)
            let ok = try await phone.text(from: "+15551230001", "OK", id: "SMin4")
            #expect(ok.hasPrefix("Thanks Ada, you're checked in until "))
            let checkIns = try await client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.first?.source == .smsReply)
        }
    }

    @Test func stopTurnsTextsIntoCallsForAlertsUntilStart() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (ada, bob) = try await phone.adaWatchedByBob()

            func settingsPage() async throws -> String {
                try await client.execute(uri: "/settings", method: .get, headers: [.cookie: "ls_session=\(bob)"]) {
                    String(buffer: $0.body)
                }
            }
            #expect(try await !settingsPage().contains("texts-stopped"))
            let stop = try await phone.text(from: "+15551230002", "STOP", id: "SMstop")
            #expect(stop.hasPrefix("You won't get texts from LifeSignal on this number any more."))
            // Bob's settings say so, and how to undo it.
            #expect(
                try await settingsPage().contains(
                    "Texts to your number +15551230002 are off: you texted STOP. Alerts about people you watch over call it instead."))
            let before = phone.fake.requests.count
            #expect(try await client.call(Operations.raiseAlert, token: ada).status == .created)
            try await phone.deliver()
            let toBob = phone.fake.requests.dropFirst(before).filter { $0.form["To"] == "+15551230002" }
            #expect(toBob.map(\.resource) == ["Calls.json"])
            let twiml = try #require(toBob.first?.form["Twiml"])
            #expect(twiml.contains(#"action="https://lifesignal.example/callbacks/twilio/voice""#))
            #expect(twiml.contains("<Say>Press 1 to say you&apos;re on it.</Say>"))

            #expect(try await phone.text(from: "+15551230002", "Start", id: "SMstart").hasPrefix("Texts from LifeSignal are on again"))
            #expect(try await !settingsPage().contains("texts-stopped"))
            #expect(try await client.call(Operations.clearAlert, token: ada).status == .ok)
            phone.world.clock.advance(by: 3600)
            let after = phone.fake.requests.count
            #expect(try await client.call(Operations.raiseAlert, token: ada).status == .created)
            try await phone.deliver()
            #expect(
                phone.fake.requests.dropFirst(after).filter { $0.form["To"] == "+15551230002" }.map(\.resource).first == "Messages.json")
        }
    }

    @Test func unansweredCallsAreRetriedThenFallBackAndAKeyAnswers() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (ada, _) = try await client.signUp(phone.world, first: "Ada", phone: "+15551230001")
            let (bob, _) = try await client.signUp(phone.world, first: "Bob", phone: "+15551230002")
            let (cy, _) = try await client.signUp(phone.world, first: "Cy", phone: "+15551230003")
            try await client.link(responder: bob, dependent: ada)
            try await client.link(responder: cy, dependent: ada)
            // Both chose a landline for alerts.
            try await client.addProvedChannel(
                phone.world, bob, ChannelRegistration(kind: .voice, address: "+15559870002", categories: [.alerts]))
            try await client.addProvedChannel(
                phone.world, cy, ChannelRegistration(kind: .voice, address: "+15559870003", categories: [.alerts]))
            try await phone.deliver()

            // Ada misses her check-in: each responder's first channel, the landline, is called.
            #expect(
                try await client.call(
                    Operations.updateProfile, token: ada, json: ProfileChanges(schedule: .interval(seconds: 8 * 3600))
                ).status == .ok)
            #expect(try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID()))).status == .created)
            try await phone.deliver()
            let before = phone.fake.requests.count
            phone.world.clock.advance(by: 8 * 3600 + 11 * 60)
            let engine = EscalationEngine(core: phone.world.core, instance: "calls")
            try await engine.runUntilIdle()
            func calls(to number: String) -> [String] {
                // The alert's calls (Cy is also called to hear that Bob is on it).
                phone.sids(after: before) {
                    $0.resource == "Calls.json" && $0.form["To"] == number
                        && $0.form["Twiml"]?.contains("Press 1 to say you&apos;re on it.") == true
                }
            }
            try await phone.deliver()
            #expect(calls(to: "+15559870002").count == 1)
            #expect(calls(to: "+15559870003").count == 1)

            // Nobody answers either call: both are placed again two minutes later.
            for number in ["+15559870002", "+15559870003"] {
                try await phone.callStatus(calls(to: number)[0], "ringing")
                try await phone.callStatus(calls(to: number)[0], "no-answer")
            }
            try await phone.deliver()
            #expect(calls(to: "+15559870002").count == 1)
            phone.world.clock.advance(by: ServiceCore.alertCallRetryDelay)
            try await phone.deliver()
            #expect(calls(to: "+15559870002").count == 2)
            #expect(calls(to: "+15559870003").count == 2)

            // Cy never answers: a third call, then his verified number gets a text.
            try await phone.callStatus(calls(to: "+15559870003")[1], "busy")
            phone.world.clock.advance(by: ServiceCore.alertCallRetryDelay)
            try await phone.deliver()
            #expect(calls(to: "+15559870003").count == 3)
            let textsBefore = phone.fake.requests.count
            try await phone.callStatus(calls(to: "+15559870003")[2], "no-answer")
            try await phone.deliver()
            let fallback = phone.fake.requests.dropFirst(textsBefore).filter { $0.form["To"] == "+15551230003" }
            #expect(fallback.map(\.resource) == ["Messages.json"])
            #expect(calls(to: "+15559870003").count == 3)

            // Bob answers his second call and presses 1.
            try await phone.callStatus(calls(to: "+15559870002")[1], "in-progress")
            let spoken = try await phone.press("1", on: calls(to: "+15559870002")[1])
            #expect(spoken.contains("<Say>Thank you. Ada Tester and the others are being told you&apos;re on it. Goodbye.</Say>"))
            let status = try await client.call(Operations.getStatus, token: ada).decode(CheckInStatus.self)
            #expect(status.openIncident?.kind == .missedCheckIn)
            #expect(status.openIncident?.acknowledgedByName == "Bob Tester")
            // Someone is on it: a call that goes unanswered now is not placed again.
            try await phone.callStatus(calls(to: "+15559870002")[0], "completed")
            let afterOnIt = phone.fake.requests.count
            phone.world.clock.advance(by: ServiceCore.alertCallRetryDelay)
            try await phone.deliver()
            #expect(phone.fake.requests.dropFirst(afterOnIt).allSatisfy { $0.form["Twiml"]?.contains("Press 1 to say") != true })

            let timeline = try await client.call(Operations.getTimeline, token: ada).decode([TimelineEntry].self).map(\.summary)
            #expect(timeline.filter { $0.hasPrefix("Cy Tester: voice failed") }.count == 3)
            #expect(timeline.contains("Cy Tester: voice failed (The line was busy.), calling again in 2 minutes"))
        }
    }

    @Test func pressingOneOnAReminderCallChecksIn() async throws {
        try await withPhone { phone in
            let client = phone.client
            let (ada, _) = try await client.signUp(phone.world, first: "Ada", phone: "+15551230001")
            try await client.addProvedChannel(
                phone.world, ada, ChannelRegistration(kind: .voice, address: "+15559870001", categories: [.system]))
            #expect(
                try await client.call(
                    Operations.updateProfile, token: ada,
                    json: ProfileChanges(schedule: .interval(seconds: 8 * 3600), timeZone: "America/New_York")
                ).status == .ok)
            #expect(try await client.call(Operations.checkIn, token: ada, json: CheckInBody(id: CheckInID(UUID()))).status == .created)
            try await phone.deliver()

            phone.world.clock.advance(by: 8 * 3600 - 30 * 60)
            #expect(try await EscalationEngine(core: phone.world.core, instance: "calls").runPass().reminders == 1)
            let before = phone.fake.requests.count
            try await phone.deliver()
            let call = try #require(phone.fake.requests.dropFirst(before).first)
            #expect(call.resource == "Calls.json")
            #expect(call.form["To"] == "+15559870001")
            #expect(call.form["Twiml"]?.contains("<Say>Press 1 if you&apos;re OK.</Say>") == true)
            let sid = try #require(call.sid)

            // 15:31 UTC, eight hours on: 18:31 in New York.
            phone.world.clock.advance(by: 60)
            let spoken = try await phone.press("1", on: sid)
            #expect(
                spoken
                    == #"<?xml version="1.0" encoding="UTF-8"?><Response><Say>Thank you. You&apos;re checked in until today at 18:31. Goodbye.</Say></Response>"#
            )
            let checkIns = try await client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.first?.source == .phoneKeypad)
            // A forged key press is refused.
            let forged = [("CallSid", sid), ("Digits", "1")]
            #expect(try await phone.post("/callbacks/twilio/voice", forged, signature: "AAAA").0 == .forbidden)
        }
    }
}
