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
import Testing

/// The daily call, end to end on both databases: the engine rings her number through the
/// production Twilio adapter at the local fake, Twilio's side (keys pressed, how calls ended)
/// comes back signed, and the test clock walks the morning.
///
/// The world starts Saturday 2026-11-21 08:00 UTC (09:00 in Berlin). Ada's call is at 10:00
/// Berlin time; signing up at 09:00 counts for that day (as a check-in would), so her first
/// call rings on Sunday at 10:00 (09:00 UTC), then 10:15 and 10:30; the deadline is 10:40.
@Suite("Daily call", .serialized)
struct DailyCallTests {
    static let firstCall = TestWorld.start.addingTimeInterval(25 * 3600)
    static let call = DailyCall(hour: 10, minute: 0, timeZone: "Europe/Berlin")

    func withCalls(_ backend: TestBackend, _ body: @Sendable (TelephonyTests.Phone) async throws -> Void) async throws {
        let fake = FakeTwilio()
        try await fake.run { base in
            let twilio = ChannelSettings(environment: [
                "LIFESIGNAL_TWILIO_ACCOUNT_SID": FakeTwilio.accountSID, "LIFESIGNAL_TWILIO_AUTH_TOKEN": FakeTwilio.authToken,
                "LIFESIGNAL_TWILIO_FROM": FakeTwilio.from, "LIFESIGNAL_TWILIO_BASE_URL": base,
            ])
            let (world, drop) = try await TestWorld.on(
                backend, configuration: ServiceConfiguration(defaultChannel: .sms, publicBaseURL: TelephonyTests.publicURL),
                server: { server in
                    server.publicBaseURL = TelephonyTests.publicURL
                    server.channels = twilio
                })
            let registry = try twilio.registry(
                httpClient: .shared, publicBaseURL: TelephonyTests.publicURL, logger: Logger(label: "daily-call"))
            let clock = world.clock
            let worker = OutboxWorker(store: StoreOutbox(core: world.core), registry: registry, owner: "daily", now: { clock.now })
            do {
                try await world.test { client in
                    try await body(TelephonyTests.Phone(world: world, fake: fake, client: client, worker: worker))
                }
            } catch {
                await drop()
                throw error
            }
            await drop()
        }
    }

    /// Ada (on a daily call at 10:00 Berlin, or `at`, to `number` or her phone) watched over
    /// by Bob; their tokens.
    func adaOnADailyCall(
        _ phone: TelephonyTests.Phone, at: (Int, Int) = (10, 0), number: String? = nil
    ) async throws -> (
        ada: String, bob: String
    ) {
        let (ada, bob) = try await phone.adaWatchedByBob()
        try await bobWatchesOnly(phone, bob)
        var call = DailyCall(hour: at.0, minute: at.1, timeZone: "Europe/Berlin")
        call.number = number
        let saved = try await phone.client.call(
            Operations.updateProfile, token: ada, json: ProfileChanges(schedule: .dailyCall(call), timeZone: "Europe/Berlin"))
        #expect(saved.status == .ok, "\(String(decoding: saved.body, as: UTF8.self))")
        return (ada, bob)
    }

    /// Bob checks in on no rhythm of his own: his missed check-ins would ring his phone too.
    func bobWatchesOnly(_ phone: TelephonyTests.Phone, _ bob: String) async throws {
        #expect(try await phone.client.call(Operations.updateProfile, token: bob, json: ProfileChanges(watchOnly: true)).status == .ok)
    }

    func engine(_ phone: TelephonyTests.Phone) -> EscalationEngine { EscalationEngine(core: phone.world.core, instance: "daily") }

    /// Moves the clock to `at` and runs the engine and the outbox; returns the calls placed.
    func walk(_ phone: TelephonyTests.Phone, to at: Date) async throws -> (pass: EnginePass, calls: [FakeTwilio.Received]) {
        phone.world.clock.advance(by: at.timeIntervalSince(phone.world.clock.now))
        let before = phone.fake.requests.count
        let pass = try await engine(phone).runPass()
        try await phone.deliver()
        return (pass, phone.fake.requests.dropFirst(before).filter { $0.resource == "Calls.json" })
    }

    @Test(arguments: TestBackend.all)
    func threeUnansweredTriesThenTheIncidentAtTheDeadlineSaysHowEachEnded(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (_, bob) = try await adaOnADailyCall(phone)
            // Saturday's call was covered by signing up at 09:00: nothing rings at 10:00.
            #expect(try await walk(phone, to: TestWorld.start.addingTimeInterval(3600)).calls.isEmpty)

            let first = try await walk(phone, to: Self.firstCall)
            #expect(first.pass.calls == 1)
            let ring = try #require(first.calls.first)
            #expect(ring.form["To"] == "+15551230001")
            let twiml = try #require(ring.form["Twiml"])
            #expect(twiml.contains("Good morning Ada, this is LifeSignal."))
            #expect(twiml.contains("Press 1 if you&apos;re OK. Press 2 if you&apos;re OK but would like a call from someone today."))
            #expect(twiml.contains(#"<Gather numDigits="1""#) && twiml.contains("/callbacks/twilio/voice"))
            try await phone.callStatus(try #require(ring.sid), "no-answer")

            let second = try await walk(phone, to: Self.firstCall.addingTimeInterval(15 * 60))
            #expect(second.pass.calls == 1 && second.calls.count == 1)
            try await phone.callStatus(try #require(second.calls.first?.sid), "busy")

            let third = try await walk(phone, to: Self.firstCall.addingTimeInterval(30 * 60))
            #expect(third.pass.calls == 1 && third.calls.count == 1)
            // Picked up (a machine, an open line) and no key: not a check-in.
            try await phone.callStatus(try #require(third.calls.first?.sid), "completed")

            // One second before 10:40 nothing opens; at 10:40 exactly the missed check-in does.
            let before = try await walk(phone, to: Self.firstCall.addingTimeInterval(40 * 60 - 1))
            #expect(before.pass.incidentsOpened == 0 && before.calls.isEmpty)
            let sent = phone.fake.requests.count
            let at = try await walk(phone, to: Self.firstCall.addingTimeInterval(40 * 60))
            #expect(at.pass.incidentsOpened == 1)
            #expect(at.pass.calls == 0)
            let alert = try #require(
                phone.fake.requests.dropFirst(sent).first { $0.form["To"] == "+15551230002" && $0.resource == "Messages.json" })
            let text = try #require(alert.form["Body"])
            #expect(text.contains("Today's calls to Ada Tester:"), "\(text)")
            #expect(text.contains("no answer") && text.contains("busy") && text.contains("answered, no key pressed"), "\(text)")
            let notes = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            #expect(notes.contains { $0.type == .incidentOpened })
        }
    }

    @Test(arguments: TestBackend.all)
    func keyOneOnTheLastTryChecksHerInAndNothingOpens(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, _) = try await adaOnADailyCall(phone)
            _ = try await walk(phone, to: Self.firstCall)
            _ = try await walk(phone, to: Self.firstCall.addingTimeInterval(15 * 60))
            let last = try await walk(phone, to: Self.firstCall.addingTimeInterval(30 * 60))
            let sid = try #require(last.calls.first?.sid)
            phone.world.clock.advance(by: 60)
            let spoken = try await phone.press("1", on: sid)
            #expect(spoken.contains("Thank you. You&apos;re checked in until"), "\(spoken)")
            // Twilio repeats the key: still one check-in.
            _ = try await phone.press("1", on: sid)
            let checkIns = try await phone.client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.filter { $0.source == .dailyCall }.count == 1)

            let deadline = try await walk(phone, to: Self.firstCall.addingTimeInterval(40 * 60))
            #expect(deadline.pass.incidentsOpened == 0 && deadline.calls.isEmpty)
            // Monday's call rings at 10:00 as planned.
            let monday = try await walk(phone, to: Self.firstCall.addingTimeInterval(86400))
            #expect(monday.calls.count == 1)
        }
    }

    @Test(arguments: TestBackend.all)
    func onTheDaylightSavingDayTheCallStillRingsAtTenOnHerClock(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            // Friday 2027-03-26, 12:00 in Berlin; Berlin springs forward early on Sunday the 28th.
            let friday = ISO8601DateFormatter().date(from: "2027-03-26T11:00:00Z")!
            phone.world.clock.advance(by: friday.timeIntervalSince(phone.world.clock.now))
            let (ada, _) = try await adaOnADailyCall(phone)
            // Saturday 10:00 CET is 09:00 UTC: not a second before.
            let saturday = friday.addingTimeInterval(22 * 3600)
            #expect(try await walk(phone, to: saturday.addingTimeInterval(-1)).calls.isEmpty)
            let rang = try await walk(phone, to: saturday)
            #expect(rang.calls.map { $0.form["To"] } == ["+15551230001"])
            _ = try await phone.press("1", on: try #require(rang.calls.first?.sid))
            let checkIns = try await phone.client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.filter { $0.source == .dailyCall }.count == 1)
            // Sunday 10:00 CEST is 08:00 UTC: 23 hours later, not 24.
            let sunday = saturday.addingTimeInterval(23 * 3600)
            #expect(try await walk(phone, to: sunday.addingTimeInterval(-1)).calls.isEmpty)
            #expect(try await walk(phone, to: sunday).calls.count == 1)
            #expect(try await walk(phone, to: sunday.addingTimeInterval(15 * 60)).calls.count == 1)
            #expect(try await walk(phone, to: sunday.addingTimeInterval(30 * 60)).calls.count == 1)
            // Unanswered: the missed check-in opens at 10:40 on her clock, 08:40 UTC exactly.
            #expect(try await walk(phone, to: sunday.addingTimeInterval(40 * 60 - 1)).pass.incidentsOpened == 0)
            #expect(try await walk(phone, to: sunday.addingTimeInterval(40 * 60)).pass.incidentsOpened == 1)
        }
    }

    @Test(arguments: TestBackend.all)
    func aTryReachedOnlyAfterNineIsHeldButTheTriesSheChoseIntoTheNightRing(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, bob) = try await adaOnADailyCall(phone, at: (20, 55))
            // Saturday's call was covered by signing up that morning.
            let saturday = TestWorld.start.addingTimeInterval(12 * 3600 + 5 * 60)
            #expect(try await walk(phone, to: saturday).calls.isEmpty)
            // Sunday: no engine ran at 20:55; it is back at 21:05, ten minutes late. The first
            // try, planned before nine, would ring in her night: it is held, and Bob is asked to
            // check on her.
            let sunday = saturday.addingTimeInterval(24 * 3600)
            let held = try await walk(phone, to: sunday)
            #expect(held.calls.isEmpty)
            #expect(held.pass.calls == 0)
            let bobs = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            let failed = bobs.filter { $0.type == .dailyCallFailed }
            #expect(failed.count == 1)
            #expect(failed.first?.body.contains("could not be placed. Please check on Ada Tester.") == true, "\(failed)")
            let timeline = try await phone.client.call(Operations.getTimeline, token: ada).decode([TimelineEntry].self)
            #expect(timeline.filter { $0.kind == "daily_call_unplaced" && $0.summary.contains("(night)") }.count == 1)
            // The second try at 21:10 is one she chose (20:55 tried every 15 minutes): it rings.
            let second = try await walk(phone, to: sunday.addingTimeInterval(5 * 60))
            #expect(second.calls.map { $0.form["To"] } == ["+15551230001"])
        }
    }

    @Test(arguments: TestBackend.all)
    func aDrillRingsHerDailyCallTooAndReportsTheKeyShePressed(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, _) = try await adaOnADailyCall(phone)
            let sent = phone.fake.requests.count
            let drill = try await phone.client.call(Operations.runDrill, token: ada).decode(DrillReport.self)
            try await phone.deliver()
            // Bob's test alert (by text), and a test of her call: the same menu through the same
            // provider, saying it is a test.
            let placed = phone.fake.requests.dropFirst(sent)
            let ring = try #require(placed.first { $0.resource == "Calls.json" })
            #expect(ring.form["To"] == "+15551230001")
            let twiml = try #require(ring.form["Twiml"])
            #expect(twiml.contains("Hello Ada, this is a test of your daily call from LifeSignal."), "\(twiml)")
            #expect(twiml.contains("Press 1 if you&apos;re OK."))
            #expect(placed.contains { $0.resource == "Messages.json" && $0.form["To"] == "+15551230002" })
            let mine = try #require(drill.recipients.first { $0.checkedIn != nil })
            #expect(mine.checkedIn == false)
            #expect(drill.recipients.filter { $0.checkedIn == nil }.map(\.name) == ["Bob Tester"])

            // She presses 1: checked in, by the daily call's own path, and the report says so.
            let spoken = try await phone.press("1", on: try #require(ring.sid))
            #expect(spoken.contains("checked in until"), "\(spoken)")
            let checkIns = try await phone.client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.filter { $0.source == .dailyCall }.count == 1)
            let report = try await phone.client.call(Operations.getDrill, ["id": drill.id.description], token: ada).decode(DrillReport.self)
            #expect(report.recipients.first { $0.checkedIn != nil }?.checkedIn == true)
            // The web report names the row and what she pressed.
            let page = try await ResponderPagesTests.page(phone.client, "/drills/\(drill.id)", ada)
            #expect(page.contains("Your daily call (a test call)") && page.contains("You pressed a key: checked in"), "\(page)")
        }
    }

    @Test(arguments: TestBackend.all)
    func keysTwoNineAndZeroDoWhatTheMenuSays(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, bob) = try await adaOnADailyCall(phone)
            let ring = try await walk(phone, to: Self.firstCall)
            let sid = try #require(ring.calls.first?.sid)

            // 0: the menu again, waiting for a key.
            let again = try await phone.press("0", on: sid)
            #expect(again.contains("<Gather") && again.contains("Press 9 if you need help."), "\(again)")
            // 7 means nothing: said so, and the menu again.
            let nothing = try await phone.press("7", on: sid)
            #expect(nothing.contains("That key does nothing.") && nothing.contains("<Gather"))

            // 9 asks for a second 9 before anyone is alerted; another key goes back.
            let nine = try await phone.press("9", on: sid)
            #expect(nine.contains("Press 9 again to alert Bob Tester."), "\(nine)")
            #expect(nine.contains("step=confirm-help"))
            let back = try await phone.post(
                "/callbacks/twilio/voice?step=confirm-help", [("CallSid", sid), ("Digits", "4")])
            #expect(back.1.contains("Nobody was alerted."))
            #expect(try await phone.client.call(Operations.getStatus, token: ada).decode(CheckInStatus.self).openIncident == nil)

            // 2: checked in, and Bob asked quietly to call her today.
            let two = try await phone.press("2", on: sid)
            #expect(two.contains("Bob Tester") && two.contains("checked in until"), "\(two)")
            try await phone.deliver()
            let bobs = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            #expect(bobs.contains { $0.type == .callRequest && $0.body.contains("on her daily call") })
            let checkIns = try await phone.client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.first?.source == .dailyCall)

            // The second 9: her alert goes to Bob.
            let confirmed = try await phone.post(
                "/callbacks/twilio/voice?step=confirm-help", [("CallSid", sid), ("Digits", "9")])
            #expect(confirmed.1.contains("We are alerting Bob Tester now."), "\(confirmed.1)")
            let status = try await phone.client.call(Operations.getStatus, token: ada).decode(CheckInStatus.self)
            #expect(status.openIncident?.kind == .manualAlert)
            // A forged confirmation is refused.
            #expect(
                try await phone.post(
                    "/callbacks/twilio/voice?step=confirm-help", [("CallSid", sid), ("Digits", "9")], signature: "AAAA"
                ).0 == .forbidden)
        }
    }

    @Test(arguments: TestBackend.all)
    func aCallThatCannotBePlacedTellsTheRespondersOnce(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            // Her number is one the fake refuses with 503 while its outage lasts.
            let (ada, _) = try await phone.client.signUp(phone.world, first: "Ada", phone: FakeTwilio.troubled)
            let (bob, _) = try await phone.client.signUp(phone.world, first: "Bob", phone: "+15551230002")
            try await phone.client.link(responder: bob, dependent: ada)
            try await bobWatchesOnly(phone, bob)
            try await phone.deliver()
            #expect(
                try await phone.client.call(
                    Operations.updateProfile, token: ada, json: ProfileChanges(schedule: .dailyCall(Self.call))
                ).status == .ok)
            let ring = try await walk(phone, to: Self.firstCall)
            #expect(ring.pass.calls == 1)
            #expect(ring.calls.allSatisfy { $0.sid == nil }, "the provider refused it")
            // One minute on, still within the two: nobody is told yet.
            _ = try await walk(phone, to: Self.firstCall.addingTimeInterval(60))
            var bobs = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            #expect(!bobs.contains { $0.type == .dailyCallFailed })
            // Past two minutes: Bob is asked to check on her, once.
            _ = try await walk(phone, to: Self.firstCall.addingTimeInterval(150))
            _ = try await walk(phone, to: Self.firstCall.addingTimeInterval(200))
            bobs = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            let failed = bobs.filter { $0.type == .dailyCallFailed }
            #expect(failed.count == 1)
            #expect(failed.first?.body.contains("could not be placed. Please check on Ada Tester.") == true, "\(failed)")
            let timeline = try await phone.client.call(Operations.getTimeline, token: ada).decode([TimelineEntry].self)
            #expect(timeline.filter { $0.kind == "daily_call_unplaced" }.count == 1)
            // (A call the provider refused has ended: it is not late, and /health stays as it
            // was. Calls left waiting behind their slot turn it red: DailyCallPacingTests.)
        }
    }

    @Test(arguments: TestBackend.all)
    func theNumberCalledMustBeHersOrOneSheProved(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, bob) = try await phone.adaWatchedByBob()
            try await bobWatchesOnly(phone, bob)
            try await phone.client.addProvedChannel(
                phone.world, ada, ChannelRegistration(kind: .voice, address: "+15559990002", categories: [.system]))
            var call = Self.call
            call.number = "+15559990001"
            let refused = try await phone.client.call(
                Operations.updateProfile, token: ada, json: ProfileChanges(schedule: .dailyCall(call)))
            #expect(refused.status == .badRequest)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("invalid_schedule"))
            let profile = try await phone.client.call(Operations.getProfile, token: ada).decode(User.self)
            #expect(profile.schedule.dailyCall == nil, "a refused change changes nothing")

            // A landline she proved as a call channel is fine, and the call rings it.
            try await phone.client.addProvedChannel(
                phone.world, ada, ChannelRegistration(kind: .voice, address: "+15559990001", categories: [.system]))
            try await phone.deliver()
            let saved = try await phone.client.call(
                Operations.updateProfile, token: ada, json: ProfileChanges(schedule: .dailyCall(call)))
            #expect(saved.status == .ok)
            let ring = try await walk(phone, to: Self.firstCall)
            #expect(ring.calls.map { $0.form["To"] } == ["+15559990001"])
        }
    }

    @Test(arguments: TestBackend.all)
    func keyEightTwiceStopsTheCallsAndTellsHerResponders(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, bob) = try await adaOnADailyCall(phone)
            let ring = try await walk(phone, to: Self.firstCall)
            let sid = try #require(ring.calls.first?.sid)
            let eight = try await phone.press("8", on: sid)
            #expect(eight.contains("Press 8 again to stop these calls; Bob Tester will be told."), "\(eight)")
            #expect(eight.contains("step=confirm-stop"))
            let kept = try await phone.post("/callbacks/twilio/voice?step=confirm-stop", [("CallSid", sid), ("Digits", "1")])
            #expect(kept.1.contains("Your calls stay on.") && kept.1.contains("<Gather"))
            let stopped = try await phone.post("/callbacks/twilio/voice?step=confirm-stop", [("CallSid", sid), ("Digits", "8")])
            #expect(stopped.1.contains("These calls have stopped"), "\(stopped.1)")
            let profile = try await phone.client.call(Operations.getProfile, token: ada).decode(User.self)
            #expect(profile.watchOnly)
            try await phone.deliver()
            let bobs = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            #expect(bobs.contains { $0.title == "Ada Tester stopped the daily calls" })
            // No more tries, no incident at the deadline, nothing on Monday.
            #expect(try await walk(phone, to: Self.firstCall.addingTimeInterval(15 * 60)).calls.isEmpty)
            #expect(try await walk(phone, to: Self.firstCall.addingTimeInterval(40 * 60)).pass.incidentsOpened == 0)
            #expect(try await walk(phone, to: Self.firstCall.addingTimeInterval(86400)).calls.isEmpty)
        }
    }

    @Test(arguments: TestBackend.all)
    func callingLifeSignalFromHerPhoneChecksHerInAndAStrangerHearsHowToSignUp(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, _) = try await adaOnADailyCall(phone)
            // Sunday 09:00 in Berlin, an hour before her call.
            phone.world.clock.advance(by: 24 * 3600)
            let incoming = [("CallSid", "CA-in-1"), ("From", "+15551230001"), ("To", FakeTwilio.from)]
            let menu = try await phone.post("/callbacks/twilio/incoming", incoming)
            #expect(menu.0 == .ok)
            #expect(menu.1.contains("Hello Ada, this is LifeSignal.") && menu.1.contains("Press 1 if you&apos;re OK."), "\(menu.1)")
            #expect(menu.1.contains("step=call-in"))
            let one = try await phone.post(
                "/callbacks/twilio/voice?step=call-in", [("CallSid", "CA-in-1"), ("Digits", "1"), ("From", "+15551230001")])
            #expect(one.1.contains("Thank you. You&apos;re checked in until"), "\(one.1)")
            let checkIns = try await phone.client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.first?.source == .inboundCall)
            // Sunday's calls are covered: nothing rings.
            #expect(try await walk(phone, to: Self.firstCall).calls.isEmpty)
            // Key 8 does not stop anything on a call she made (caller ID is easier to forge).
            let eight = try await phone.post(
                "/callbacks/twilio/voice?step=call-in", [("CallSid", "CA-in-1"), ("Digits", "8"), ("From", "+15551230001")])
            #expect(eight.1.contains("That key does nothing."))

            let stranger = try await phone.post(
                "/callbacks/twilio/incoming", [("CallSid", "CA-in-2"), ("From", "+15559998888"), ("To", FakeTwilio.from)])
            #expect(stranger.1.contains("This number is not registered with us. To sign up, visit https://lifesignal.example."))
            #expect(!stranger.1.contains("<Gather"))
            // A stranger cannot answer the menu in her name by naming another step's caller.
            let forged = try await phone.post(
                "/callbacks/twilio/voice?step=call-in", [("CallSid", "CA-in-2"), ("Digits", "1"), ("From", "+15559998888")])
            #expect(forged.1.contains("this call has ended"))
            // Unsigned: refused.
            #expect(try await phone.post("/callbacks/twilio/incoming", incoming, signature: "AAAA").0 == .forbidden)
        }
    }

    @Test(arguments: TestBackend.all)
    func withAPinCallingInAsksForItFirstAndGuessingClosesIt(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, _) = try await adaOnADailyCall(phone)
            func setPin(_ pin: String) async throws -> HTTPResponse.Status {
                try await phone.client.call(Operations.updateProfile, token: ada, json: ProfileChanges(callInPin: pin)).status
            }
            func me() async throws -> (user: User, json: String) {
                let response = try await phone.client.call(Operations.getProfile, token: ada)
                return (try response.decode(User.self), String(decoding: response.body, as: UTF8.self))
            }
            // Not four digits: refused, nothing saved.
            #expect(try await setPin("12a4") == .badRequest)
            #expect(try await setPin("12345") == .badRequest)
            #expect(try await me().user.hasCallInPin == false)
            #expect(try await setPin("2468") == .ok)
            let saved = try await me()
            #expect(saved.user.hasCallInPin)
            #expect(!saved.json.contains("2468"), "the PIN is never shown")

            phone.world.clock.advance(by: 24 * 3600)
            func call(_ sid: String) async throws -> String {
                try await phone.post("/callbacks/twilio/incoming", [("CallSid", sid), ("From", "+15551230001"), ("To", FakeTwilio.from)]).1
            }
            func press(_ digits: String, on sid: String, step: String) async throws -> String {
                try await phone.post(
                    "/callbacks/twilio/voice?step=\(step)", [("CallSid", sid), ("Digits", digits), ("From", "+15551230001")]
                ).1
            }
            let asked = try await call("CA-pin-1")
            #expect(asked.contains("Please enter your four-digit PIN.") && asked.contains(#"numDigits="4""#), "\(asked)")
            #expect(asked.contains("step=call-in-pin") && !asked.contains("Press 1 if you"))
            // The menu's step without the PIN on this call: nothing.
            #expect(try await press("1", on: "CA-pin-1", step: "call-in").contains("this call has ended"))
            // Wrong: said, and asked again. Right: the menu, and 1 checks her in.
            let wrong = try await press("1111", on: "CA-pin-1", step: "call-in-pin")
            #expect(wrong.contains("That PIN is not right.") && wrong.contains("step=call-in-pin"), "\(wrong)")
            let menu = try await press("2468", on: "CA-pin-1", step: "call-in-pin")
            #expect(menu.contains("Press 1 if you&apos;re OK.") && menu.contains("step=call-in"), "\(menu)")
            #expect(try await press("1", on: "CA-pin-1", step: "call-in").contains("checked in until"))
            let checkIns = try await phone.client.call(Operations.listCheckIns, token: ada).decode([CheckIn].self)
            #expect(checkIns.first?.source == .inboundCall)

            // Someone calling from a number made to look like hers, guessing: three wrong PINs
            // end a call; five in the hour close calling in, even to the right PIN.
            _ = try await call("CA-pin-2")
            #expect(try await press("0000", on: "CA-pin-2", step: "call-in-pin").contains("<Gather"))
            #expect(try await press("0001", on: "CA-pin-2", step: "call-in-pin").contains("<Gather"))
            let third = try await press("0002", on: "CA-pin-2", step: "call-in-pin")
            #expect(third.contains("That PIN is not right.") && !third.contains("<Gather"), "\(third)")
            _ = try await call("CA-pin-3")
            #expect(!(try await press("0003", on: "CA-pin-3", step: "call-in-pin")).contains("<Gather"))
            _ = try await call("CA-pin-4")
            let locked = try await press("2468", on: "CA-pin-4", step: "call-in-pin")
            #expect(locked.contains("calling in is closed for the next hour") && !locked.contains("<Gather"), "\(locked)")
            // An hour on, it opens again.
            phone.world.clock.advance(by: 3600)
            _ = try await call("CA-pin-5")
            #expect(try await press("2468", on: "CA-pin-5", step: "call-in-pin").contains("Press 1 if you&apos;re OK."))

            // Removed: her number is enough again.
            #expect(try await setPin("") == .ok)
            #expect(try await me().user.hasCallInPin == false)
            #expect(try await call("CA-pin-6").contains("Press 1 if you&apos;re OK."))
            let timeline = try await phone.client.call(Operations.getTimeline, token: ada).decode([TimelineEntry].self)
            #expect(timeline.filter { $0.summary == "Call-in PIN set" || $0.summary == "Call-in PIN removed" }.count == 2)

            // On the web, from her card: set (the card says to enter it, never what it is), then removed.
            let csrf = try await ResponderPagesTests.csrf(phone.client, ada)
            @Sendable func post(_ fields: String) async throws -> HTTPResponse.Status {
                try await phone.client.execute(
                    uri: "/card/pin", method: .post,
                    headers: [.cookie: "ls_session=\(ada)", .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "_csrf=\(csrf)&" + fields)
                ) { $0.status }
            }
            #expect(try await post("pin=12") == .seeOther)
            #expect(try await me().user.hasCallInPin == false, "three digits: refused, nothing saved")
            #expect(try await post("pin=1357") == .seeOther)
            #expect(try await me().user.hasCallInPin)
            let card = try await ResponderPagesTests.page(phone.client, "/card", ada)
            // Never the PIN itself (as a value of its own: ids and tokens on the page may hold
            // the same four digits by chance).
            let shown = card.range(of: #"(?<![A-Za-z0-9_-])1357(?![A-Za-z0-9_-])"#, options: .regularExpression)
            #expect(card.contains("enter your PIN and press 1") && card.contains(#"id="remove-pin""#) && shown == nil)
            #expect(try await post("remove=1") == .seeOther)
            #expect(try await me().user.hasCallInPin == false)
        }
    }

    /// The web's first-run questions offer "call me every day" as the rhythm, as Home does:
    /// choosing it finishes them with her daily call set, not a refusal.
    @Test(arguments: TestBackend.all)
    func aDailyCallChosenWhileOnboardingOnTheWebIsKept(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (ada, _) = try await phone.client.signUp(phone.world, first: "Ada", phone: "+4915112345690")
            let csrf = Accounts.tokenHash("csrf:" + ada)
            let (status, location) = try await phone.client.execute(
                uri: "/onboarding", method: .post,
                headers: [.cookie: "ls_session=\(ada)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(csrf)&step=3&rhythm=daily_call&callTime=09:30&timeZone=Europe/Berlin")
            ) { ($0.status, $0.headers[.location]) }
            #expect(status == .seeOther && location == "/", "\(status) \(location ?? "")")
            let me = try await phone.client.call(Operations.getProfile, token: ada).decode(User.self)
            #expect(me.schedule.dailyCall?.hour == 9 && me.schedule.dailyCall?.minute == 30)
            #expect(me.schedule.dailyCall?.timeZone == "Europe/Berlin")
        }
    }

    // MARK: - Set up by family, with her yes

    static let mum = "+15551239999"

    /// Bob asks for daily calls for his mother at 10:00 Berlin time; returns his token and the request.
    func bobSetsUpMum(_ phone: TelephonyTests.Phone) async throws -> (bob: String, setup: DailyCallSetup) {
        let (bob, _) = try await phone.client.signUp(phone.world, first: "Bob", phone: "+15551230002")
        try await bobWatchesOnly(phone, bob)
        let made = try await phone.client.call(
            Operations.createDailyCallSetup, token: bob,
            json: DailyCallSetupBody(firstName: "Mum", lastName: "Becker", phone: Self.mum, time: "10:00", timeZone: "Europe/Berlin"))
        #expect(made.status == .created, "\(String(decoding: made.body, as: UTF8.self))")
        let setup = try made.decode(DailyCallSetup.self)
        #expect(setup.status == .pending && setup.tries == 0)
        return (bob, setup)
    }

    func setups(_ phone: TelephonyTests.Phone, _ token: String) async throws -> [DailyCallSetup] {
        try await phone.client.call(Operations.listDailyCallSetups, token: token).decode([DailyCallSetup].self)
    }

    @Test(arguments: TestBackend.all)
    func sheAgreesOnTheConsentCallAndHerDailyCallsStartWithBobWatching(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (bob, _) = try await bobSetsUpMum(phone)
            // Nothing rings but the consent call: 09:00 in Berlin is not night.
            let consent = try await walk(phone, to: phone.world.clock.now)
            #expect(consent.pass.consentCalls == 1)
            let ring = try #require(consent.calls.first)
            #expect(ring.form["To"] == Self.mum)
            let twiml = try #require(ring.form["Twiml"])
            #expect(
                twiml.contains(
                    "Bob Tester has asked LifeSignal to call you every day at 10:00 and to tell them if you don&apos;t answer. Press 1 to agree."
                ),
                "\(twiml)")
            let answer = try await phone.press("1", on: try #require(ring.sid))
            #expect(answer.contains("LifeSignal will call you every day at 10:00. To stop the calls, press 8"), "\(answer)")
            let listed = try #require(try await setups(phone, bob).first)
            #expect(listed.status == .agreed && listed.personID != nil)
            let lists = try await phone.client.call(Operations.listContacts, token: bob).decode(ContactLists.self)
            #expect(lists.dependents.map(\.firstName) == ["Mum"])
            try await phone.deliver()
            let bobs = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            #expect(bobs.contains { $0.type == .dailyCallSetup && $0.title == "Mum Becker agreed to daily calls" })
            // No second consent call; her first daily call rings tomorrow at 10:00.
            #expect(try await walk(phone, to: TestWorld.start.addingTimeInterval(20 * 60)).calls.isEmpty)
            let daily = try await walk(phone, to: Self.firstCall)
            #expect(daily.calls.count == 1)
            #expect(daily.calls.first?.form["Twiml"]?.contains("Good morning Mum, this is LifeSignal.") == true)
        }
    }

    @Test(arguments: TestBackend.all)
    func sheSaysNoOrNeverAnswersAndNothingIsKept(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (bob, setup) = try await bobSetsUpMum(phone)
            let ring = try await walk(phone, to: phone.world.clock.now)
            _ = try await phone.press("2", on: try #require(ring.calls.first?.sid))
            let declined = try #require(try await setups(phone, bob).first)
            #expect(declined.status == .declined && declined.personID == nil)
            // Her account is gone: the number can sign up on its own, and no call rings again.
            #expect(try await walk(phone, to: Self.firstCall).calls.isEmpty)
            // Bob may not ask again for 30 days.
            let again = try await phone.client.call(
                Operations.createDailyCallSetup, token: bob,
                json: DailyCallSetupBody(firstName: "Mum", phone: Self.mum, time: "10:00", timeZone: "Europe/Berlin"))
            #expect(again.status == .tooManyRequests)
            #expect(setup.id == declined.id)
        }
        try await withCalls(backend) { phone in
            let (bob, _) = try await bobSetsUpMum(phone)
            let start = phone.world.clock.now
            var rung = 0
            for minutes in [0, 15, 30] {
                let step = try await walk(phone, to: start.addingTimeInterval(Double(minutes) * 60))
                rung += step.calls.count
                if let sid = step.calls.first?.sid { try await phone.callStatus(sid, "no-answer") }
            }
            #expect(rung == 3)
            let ended = try await walk(phone, to: start.addingTimeInterval(45 * 60))
            #expect(ended.calls.isEmpty)
            let unanswered = try #require(try await setups(phone, bob).first)
            #expect(unanswered.status == .unanswered && unanswered.personID == nil && unanswered.tries == 3)
            try await phone.deliver()
            let bobs = try await phone.client.call(Operations.listNotifications, token: bob).decode(NotificationPage.self).items
            #expect(bobs.contains { $0.title == "Mum Becker did not answer" })
            #expect(try await walk(phone, to: start.addingTimeInterval(2 * 3600)).calls.isEmpty)
        }
    }

    @Test(arguments: TestBackend.all)
    func aRequestMadeAtNightWaitsForHerCallTimeAndBobCanTakeItBack(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            // 23:00 in Berlin.
            phone.world.clock.advance(by: 14 * 3600)
            let (bob, setup) = try await bobSetsUpMum(phone)
            #expect(try await walk(phone, to: phone.world.clock.now).calls.isEmpty)
            let morning = try await walk(phone, to: Self.firstCall)
            #expect(morning.calls.map { $0.form["To"] } == [Self.mum])
            // Taken back before she answered: no more consent calls.
            let cancelled = try await phone.client.call(Operations.cancelDailyCallSetup, ["id": setup.id.description], token: bob)
            #expect(cancelled.status == .ok)
            #expect(try cancelled.decode(DailyCallSetup.self).status == .cancelled)
            #expect(try await walk(phone, to: Self.firstCall.addingTimeInterval(15 * 60)).calls.isEmpty)
            // A number with an account is refused: ask for her contact code instead.
            let taken = try await phone.client.call(
                Operations.createDailyCallSetup, token: bob,
                json: DailyCallSetupBody(firstName: "Bob", phone: "+15551230002", time: "10:00", timeZone: "Europe/Berlin"))
            #expect(taken.status == .conflict)
        }
    }

    @Test(arguments: TestBackend.all)
    func bobMarksHerAwaySheIsToldByACallAndKeyOneKeepsTheCallsOn(_ backend: TestBackend) async throws {
        try await withCalls(backend) { phone in
            let (bob, _) = try await bobSetsUpMum(phone)
            let consent = try await walk(phone, to: phone.world.clock.now)
            _ = try await phone.press("1", on: try #require(consent.calls.first?.sid))
            let mum = try #require(try await setups(phone, bob).first?.personID)
            let until = Self.firstCall.addingTimeInterval(2 * 86400)
            let away = try await phone.client.call(
                Operations.setContactAway, ["id": mum.description], token: bob, json: PauseBody(until: until))
            #expect(away.status == .ok, "\(String(decoding: away.body, as: UTF8.self))")
            let told = try await walk(phone, to: phone.world.clock.now)
            let call = try #require(told.calls.first)
            #expect(call.form["To"] == Self.mum)
            let twiml = try #require(call.form["Twiml"])
            #expect(
                twiml.contains("Bob Tester has told us you are away until") && twiml.contains("Press 1 to keep your calls on."), "\(twiml)")
            // Away: Sunday's call does not ring.
            #expect(try await walk(phone, to: Self.firstCall).calls.isEmpty)
            // Key 1 on the short call (late, but still hers) keeps them on: Monday's rings.
            let kept = try await phone.press("1", on: try #require(call.sid))
            #expect(kept.contains("Your daily calls stay on."), "\(kept)")
            #expect(try await walk(phone, to: Self.firstCall.addingTimeInterval(86400)).calls.count == 1)
        }
    }
}
