import Foundation
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// "I'm OK, but please call me today": a check-in that quietly asks her responders for a call,
/// once a calendar day each, without an incident. On both databases (PostgreSQL when
/// `LIFESIGNAL_TEST_POSTGRES_URL` is set).
@Suite("Please call me today", .timeLimit(.minutes(2)))
struct CallRequestTests {
    typealias Backend = TestBackend

    /// A world over a fresh database of either kind; `drop` removes a PostgreSQL one.
    static func world(_ backend: Backend) async throws -> (TestWorld, drop: @Sendable () async -> Void) {
        try await TestWorld.on(backend)
    }

    /// Ada (Paris) watched over by Bob and Cy (UTC).
    static func scenario(_ world: TestWorld) async throws -> (ada: Caller, bob: Caller, cy: Caller) {
        var ada = try await world.signUp("Ada", phone: "+33612345670")
        let bob = try await world.signUp("Bob", phone: "+447700900711")
        let cy = try await world.signUp("Cy", phone: "+447700900712")
        ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(timeZone: "Europe/Paris"))
        try await world.link(responder: bob, dependent: ada)
        try await world.link(responder: cy, dependent: ada)
        return (ada, bob, cy)
    }

    static func callRequests(_ world: TestWorld, _ caller: Caller) async throws -> [LifeSignalModels.Notification] {
        try await world.notifications(caller).filter { $0.type == .callRequest }
    }

    @Test(arguments: Backend.all)
    func eachResponderIsAskedOnceADayWithoutAnIncident(backend: Backend) async throws {
        let (world, drop) = try await Self.world(backend)
        let (ada, bob, cy) = try await Self.scenario(world)

        let first = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web, callMe: true)
        #expect(first.duplicate == false)
        #expect(first.callRequest?.outcome == .asked)
        #expect(first.callRequest?.told.sorted() == ["Bob Tester", "Cy Tester"])
        #expect(first.status.openIncident == nil)
        #expect(first.status.state == .ok)
        let told = try #require(try await Self.callRequests(world, bob).first)
        #expect(told.title == "Ada Tester would like a call today")
        // 08:00 UTC is 09:00 in Paris; Bob reads both clocks.
        #expect(
            told.body
                == "Ada Tester checked in on the web today at 09:00 their time (08:00 yours) and asked for someone to call. This is not an alert."
        )
        #expect(told.subjectUserID == ada.user.id)
        #expect(told.incidentID == nil)
        #expect(told.category == .pings)
        #expect(try await Self.callRequests(world, cy).count == 1)
        // She is told nothing of her own: the answer says it.
        #expect(try await world.notifications(ada).filter { $0.type == .callRequest }.isEmpty)
        let summaries = try await world.timeline.timeline(ada).map(\.summary)
        #expect(summaries.contains("Checked in on the web; asked for a call today"))
        #expect(summaries.contains("Ada Tester would like a call today → Bob Tester"))

        // Again two hours later: a check-in, and nobody told again.
        world.clock.advance(by: 2 * 3600)
        let second = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app, callMe: true)
        #expect(second.duplicate == false)
        #expect(second.checkIn.at == world.clock.now)
        #expect(second.callRequest == CallRequest(outcome: .alreadyAsked))
        #expect(try await Self.callRequests(world, bob).count == 1)
        #expect(try await world.timeline.timeline(ada).last?.summary == "Already asked for a call today: nobody told again")

        // The same id sent again (an offline retry): recorded once, nobody told.
        let retried = try await world.checkIns.checkIn(ada, id: second.checkIn.id, clientAt: nil, source: .app, callMe: true)
        #expect(retried.duplicate == true)
        #expect(retried.callRequest == CallRequest(outcome: .alreadyAsked))
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 10).count == 2)

        // A plain check-in says nothing about calls.
        let plain = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        #expect(plain.callRequest == nil)

        // Her next day starts at midnight in Paris (23:00 UTC): asked again.
        world.clock.advance(by: 13 * 3600 + 1)
        let tomorrow = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .cli, callMe: true)
        #expect(tomorrow.callRequest?.outcome == .asked)
        let bobs = try await Self.callRequests(world, bob)
        #expect(bobs.count == 2)
        #expect(bobs.contains { $0.body.hasPrefix("Ada Tester checked in from the command line today at 00:00 their time (23:00 yours)") })
        await world.store.close()
        await drop()
    }

    @Test func nobodyToAskStillChecksIn() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900713")
        let result = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .web, callMe: true)
        #expect(result.callRequest == CallRequest(outcome: .nobody))
        #expect(result.status.lastCheckInAt == world.clock.now)
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 10).count == 1)
        #expect(try await world.timeline.timeline(ada).last?.summary == "Nobody to ask for a call: no responders")
        #expect(result.callRequest?.sentence(.english) == "Nobody watches over you yet, so nobody could be asked to call you.")
    }

    /// A responder checking in on her behalf never asks for a call in her name.
    @Test func aResponderCheckingInOnHerBehalfAsksNobody() async throws {
        let world = try await TestWorld()
        let (ada, bob, cy) = try await Self.scenario(world)
        world.clock.advance(by: 24 * 3600 + 11 * 60)
        _ = try await EscalationEngine(core: world.core, instance: "call-me").runPass()
        let result = try await world.incidents.checkInOnBehalf(bob, of: ada.user.id, id: CheckInID(UUID()))
        #expect(result.callRequest == nil)
        #expect(try await Self.callRequests(world, cy).isEmpty)
        // Bob's own "call me" goes to his own responders (none): never to Ada's.
        let own = try await world.checkIns.checkIn(bob, id: CheckInID(UUID()), clientAt: nil, source: .app, callMe: true)
        #expect(own.callRequest?.outcome == .nobody)
        #expect(try await Self.callRequests(world, cy).isEmpty)
        #expect(try await Self.callRequests(world, ada).isEmpty)
    }

    @Test func wordsAreTheRecipientsAndTheTimelineReadsInHers() async throws {
        let world = try await TestWorld()
        let (ada, bob, _) = try await Self.scenario(world)
        _ = try await world.profiles.updateProfile(bob, ProfileChanges(language: "de"))
        var german = ada
        german.user = try await world.profiles.updateProfile(ada, ProfileChanges(language: "de"))
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app, callMe: true)
        let told = try #require(try await Self.callRequests(world, bob).first)
        #expect(told.title == "Ada Tester möchte heute angerufen werden")
        #expect(told.body.contains("in der App"), "\(told.body)")
        let entries = try await world.timeline.timeline(german)
        let sentences = try await world.timeline.sentences(german, for: entries)
        let checkIn = try #require(entries.last { $0.kind == "check_in" })
        #expect(sentences[checkIn.sequence] == "In der App gemeldet; um einen Anruf heute gebeten")
    }

    @Test func callMeByTextInEveryLanguage() async throws {
        let world = try await TestWorld()
        let (ada, bob, _) = try await Self.scenario(world)
        let reply = try await world.text(from: ada.user.phone, "Call me", id: "SM-call-1")
        // Her rhythm is a day: 09:00 in Paris tomorrow.
        #expect(reply == "Thanks Ada, you're checked in until tomorrow at 09:00. We've asked Bob Tester and Cy Tester to call you today.")
        let told = try #require(try await Self.callRequests(world, bob).first)
        #expect(told.body.hasPrefix("Ada Tester checked in by text "))
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 10).map(\.source) == [.smsReply])

        // The same day, in German: checked in, nobody told again, said in her words.
        _ = try await world.profiles.updateProfile(ada, ProfileChanges(language: "de"))
        world.clock.advance(by: 60)
        let again = try await world.text(from: ada.user.phone, "Ruf mich an!", id: "SM-call-2")
        #expect(again.hasSuffix("Sie haben heute schon um einen Anruf gebeten, deshalb wurde niemand erneut benachrichtigt."), "\(again)")
        #expect(try await Self.callRequests(world, bob).count == 1)
        #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 10).count == 2)

        // Someone nobody watches over hears it once, plainly.
        let eve = try await world.signUp("Eve", phone: "+447700900714")
        let alone = try await world.text(from: eve.user.phone, "CALL ME", id: "SM-call-3")
        #expect(
            alone
                == "Thanks Eve, you're checked in until tomorrow at 08:01. Nobody watches over you yet, so nobody could be asked to call you."
        )
    }
}
