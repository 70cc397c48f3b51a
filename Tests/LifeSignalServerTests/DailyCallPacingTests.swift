import Foundation
import LifeSignalAPI
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalRules
import LifeSignalServer
import LifeSignalStore
import LifeSignalTestSupport
import Logging
import NIOCore
import Testing

/// Daily calls keep to the provider's calls per second, and an SOS's call still goes out
/// first: on both databases, through the production Twilio adapter at the local fake, with
/// the test clock deciding every slot.
@Suite("Daily call pacing", .serialized)
struct DailyCallPacingTests {
    /// Sunday 2026-11-22 10:00 in Berlin (09:00 UTC): everyone's first call.
    static let firstCall = TestWorld.start.addingTimeInterval(25 * 3600)
    static let call = DailyCall(hour: 10, minute: 0, timeZone: "Europe/Berlin")

    /// A world whose people are called on their phone by default (an SOS rings Bob), with a
    /// worker that places calls at `callsPerSecond` and one unpaced for setting up.
    func withPacedCalls(
        _ backend: TestBackend, callsPerSecond: Int,
        _ body: @Sendable (_ phone: TelephonyTests.Phone, _ paced: OutboxWorker) async throws -> Void
    ) async throws {
        let fake = FakeTwilio()
        try await fake.run { base in
            let twilio = ChannelSettings(environment: [
                "LIFESIGNAL_TWILIO_ACCOUNT_SID": FakeTwilio.accountSID, "LIFESIGNAL_TWILIO_AUTH_TOKEN": FakeTwilio.authToken,
                "LIFESIGNAL_TWILIO_FROM": FakeTwilio.from, "LIFESIGNAL_TWILIO_BASE_URL": base,
            ])
            var configuration = ServiceConfiguration(defaultChannel: .voice, publicBaseURL: TelephonyTests.publicURL)
            configuration.callsPerSecond = callsPerSecond
            let (world, drop) = try await TestWorld.on(
                backend, configuration: configuration,
                server: { server in
                    server.publicBaseURL = TelephonyTests.publicURL
                    server.channels = twilio
                })
            let registry = try twilio.registry(
                httpClient: .shared, publicBaseURL: TelephonyTests.publicURL, logger: Logger(label: "pacing"))
            let clock = world.clock
            let setUp = OutboxWorker(store: StoreOutbox(core: world.core), registry: registry, owner: "setup", now: { clock.now })
            let paced = OutboxWorker(
                store: StoreOutbox(core: world.core), registry: registry, owner: "paced", now: { clock.now }, batchSize: 500,
                pacing: DeliveryPacing(callsPerSecond: callsPerSecond))
            do {
                try await world.test { client in
                    try await body(TelephonyTests.Phone(world: world, fake: fake, client: client, worker: setUp), paced)
                }
            } catch {
                await drop()
                throw error
            }
            await drop()
        }
    }

    /// `count` people on a daily call at `hour:minute` in `zone`, signed up at the world's
    /// start (which covers that day), written straight to the store.
    func seed(
        _ world: TestWorld, _ count: Int, from first: Int, hour: Int = 10, minute: Int = 0, zone: String = "Europe/Berlin"
    )
        async throws
    {
        try await world.store.write { tx in
            for i in first..<(first + count) {
                let user = User(
                    id: UserID(UUID()), phone: String(format: "+1555200%04d", i), firstName: "Caller", lastName: "\(i)",
                    schedule: .dailyCall(DailyCall(hour: hour, minute: minute, timeZone: zone)), reminders: .none,
                    lastCheckInAt: TestWorld.start, createdAt: TestWorld.start, contactCode: String(format: "pacing%010d", i),
                    isOnboarded: true, timeZone: zone)
                try await tx.people.insert(
                    user, deadline: Deadline.of(user),
                    nextActionAt: EscalationPlan.nextActionAt(for: user, stepsDone: 0, now: TestWorld.start))
            }
        }
    }

    /// The calls the fake was asked to place, in order.
    func calls(_ phone: TelephonyTests.Phone) -> [String] {
        phone.fake.requests.filter { $0.resource == "Calls.json" }.compactMap { $0.form["To"] }
    }

    @Test(arguments: TestBackend.all)
    func pacingPutsAnSOSCallAheadOf500QueuedDailyCalls(_ backend: TestBackend) async throws {
        try await withPacedCalls(backend, callsPerSecond: 10) { phone, paced in
            let (ada, bob) = try await phone.adaWatchedByBob()
            try await seed(phone.world, 500, from: 0)
            phone.world.clock.advance(by: Self.firstCall.timeIntervalSince(phone.world.clock.now))
            // Both check in, so the 25 hours just skipped are no missed check-in of theirs (whose
            // calls would tie with the daily calls' and blur which call is the SOS's).
            try await phone.checkIn(ada)
            try await phone.checkIn(bob)
            let engine = EscalationEngine(core: phone.world.core, instance: "pacing")
            var rung = 0
            while true {
                let pass = try await engine.runPass()
                if pass.total == 0 { break }
                rung += pass.calls
            }
            #expect(rung == 500)
            let before = calls(phone).count

            // 10:00:00: the first second's ten calls, however often the worker looks.
            while try await paced.runOnce() > 0 {}
            #expect(try await paced.runOnce() == 0)
            #expect(calls(phone).count - before == 10)

            // Half a second later Ada raises an SOS: Bob's call is queued after 490 daily calls
            // (later, so first come, first served would place it last).
            phone.world.clock.advance(by: 0.5)
            #expect(try await phone.client.call(Operations.raiseAlert, token: ada).status == .created)
            #expect(try await paced.runOnce() == 0, "the second's slots are taken")
            var seconds: [[String]] = []
            for second in 1...60 {
                // To 10:00:01, then a second at a time.
                phone.world.clock.advance(by: second == 1 ? 0.5 : 1)
                let placed = calls(phone).count
                while try await paced.runOnce() > 0 {}
                seconds.append(Array(calls(phone).dropFirst(placed)))
            }
            // The next second's slots go to the SOS's calls first (Bob's, and Ada's own notice
            // that he was alerted: alerts both), the rest to daily calls. A second's calls are
            // placed at once, so the order within it is the network's.
            let next = try #require(seconds.first)
            #expect(next.count == 10)
            let sosCalls = calls(phone).dropFirst(before).filter { !$0.hasPrefix("+1555200") }
            #expect(sosCalls.contains("+15551230002"))
            #expect(next.filter { !$0.hasPrefix("+1555200") }.sorted() == sosCalls.sorted(), "\(next)")
            // Every daily call placed once, never more than ten in a second of the clock, each
            // second full while calls wait: the 490 and the SOS's calls by 10:00:50.
            let daily = calls(phone).dropFirst(before).filter { $0.hasPrefix("+1555200") }
            #expect(daily.count == 500)
            #expect(Set(daily).count == 500)
            #expect(seconds.allSatisfy { $0.count <= 10 }, "\(seconds.map(\.count))")
            #expect(seconds.prefix(49).allSatisfy { $0.count == 10 }, "\(seconds.map(\.count))")
            #expect(seconds.prefix(50).joined().count == 490 + sosCalls.count)
            #expect(seconds.dropFirst(50).allSatisfy { $0.isEmpty })
        }
    }

    /// What `/health` says of delivery.
    struct HealthBody: Decodable {
        struct Delivery: Decodable {
            var healthy: Bool
            var reason: String?
            var lateDailyCalls: Int?
        }
        var status: String
        var delivery: Delivery?
    }

    func health(_ phone: TelephonyTests.Phone) async throws -> HealthBody {
        let body = try await phone.client.execute(uri: "/health", method: .get) { String(buffer: $0.body) }
        return try JSONDecoder().decode(HealthBody.self, from: Data(body.utf8))
    }

    @Test(arguments: TestBackend.all)
    func aPacedMorningKeepsHealthGreenAndAStalledOneTurnsItRed(_ backend: TestBackend) async throws {
        try await withPacedCalls(backend, callsPerSecond: 1) { phone, paced in
            let (ada, bob) = try await phone.adaWatchedByBob()
            try await seed(phone.world, 150, from: 0)
            let clock = phone.world.clock
            clock.advance(by: Self.firstCall.timeIntervalSince(clock.now))
            try await phone.checkIn(ada)
            try await phone.checkIn(bob)
            let engine = EscalationEngine(core: phone.world.core, instance: "pacing")
            try await engine.runUntilIdle()
            // 150 calls at one a second are two and a half minutes of calls. 130 s in, at pace,
            // the oldest has waited past the general limit of 120 s, and all is well.
            for _ in 0..<130 {
                clock.advance(by: 1)
                while try await paced.runOnce() > 0 {}
            }
            _ = try await engine.runPass()
            let atPace = try await health(phone)
            #expect(atPace.status == "ok", "\(atPace)")
            #expect(atPace.delivery?.lateDailyCalls == nil)
            // The worker stops with 20 calls left, whose slots end at 10:02:30. At 10:07 they
            // are late for their responders (told after 2 minutes), not yet for /health.
            clock.advance(by: Self.firstCall.addingTimeInterval(7 * 60).timeIntervalSince(clock.now))
            _ = try await engine.runPass()
            #expect(try await health(phone).status == "ok")
            // Past 10:07:30 they are more than five minutes behind: red, and why.
            clock.advance(by: 60)
            _ = try await engine.runPass()
            let stalled = try await health(phone)
            #expect(stalled.delivery?.healthy == false)
            #expect(stalled.delivery?.lateDailyCalls == 20, "\(stalled)")
            #expect(stalled.status.contains("20 daily calls still not placed more than 5 minutes after their slot"), "\(stalled)")
        }
    }

    @Test(arguments: TestBackend.all)
    func withoutPacingTheSOSCallWaitsBehindTheQueuedDailyCalls(_ backend: TestBackend) async throws {
        // The control: the same queue, a worker without the rate: first come, first served, as
        // the provider itself would queue them.
        try await withPacedCalls(backend, callsPerSecond: 10) { phone, _ in
            let (ada, bob) = try await phone.adaWatchedByBob()
            try await seed(phone.world, 50, from: 0)
            phone.world.clock.advance(by: Self.firstCall.timeIntervalSince(phone.world.clock.now))
            // Both check in, so the 25 hours just skipped are no missed check-in of theirs (whose
            // calls would tie with the daily calls' and blur which call is the SOS's).
            try await phone.checkIn(ada)
            try await phone.checkIn(bob)
            let engine = EscalationEngine(core: phone.world.core, instance: "pacing")
            try await engine.runUntilIdle()
            let before = calls(phone).count
            phone.world.clock.advance(by: 0.5)
            #expect(try await phone.client.call(Operations.raiseAlert, token: ada).status == .created)
            try await phone.deliver()
            let placed = Array(calls(phone).dropFirst(before))
            #expect(placed.filter { $0.hasPrefix("+1555200") }.count == 50)
            // Claimed in batches of 20 by due time: the SOS's call only joins the last batch.
            let bobsCall = try #require(placed.firstIndex(of: "+15551230002"))
            #expect(bobsCall >= 40, "unpaced, the SOS's call waits behind the daily calls queued before it: \(placed)")
        }
    }

    @Test(arguments: TestBackend.all)
    func thePreviewSaysHowLateTheCallMayComeCountingOtherZonesAtTheSameInstant(_ backend: TestBackend) async throws {
        try await withPacedCalls(backend, callsPerSecond: 1) { phone, _ in
            let (ada, _) = try await phone.adaWatchedByBob()
            #expect(
                try await phone.client.call(
                    Operations.updateProfile, token: ada, json: ProfileChanges(schedule: .dailyCall(Self.call), timeZone: "Europe/Berlin")
                ).status == .ok)
            func firstTry() async throws -> String {
                let steps = try await phone.client.call(Operations.previewTimeline, token: ada).decode([PreviewStep].self)
                return try #require(steps.first).summary
            }
            // Alone at 10:00: nothing to say.
            #expect(try await firstTry() == "Daily call to +15551230001: try 1 of 3")
            // Ada and 100 more at 10:00 Berlin: 101 calls at one a second, the last by 10:01:41.
            try await seed(phone.world, 100, from: 0)
            #expect(try await firstTry() == "Daily call to +15551230001: try 1 of 3. Your call may come up to 2 minutes after 10:00")
            // 09:00 in London is the same instant (in November); 10:00 in London is not.
            try await seed(phone.world, 20, from: 100, hour: 9, zone: "Europe/London")
            try await seed(phone.world, 200, from: 200, hour: 10, zone: "Europe/London")
            #expect(try await firstTry() == "Daily call to +15551230001: try 1 of 3. Your call may come up to 3 minutes after 10:00")
        }
    }
}
