import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalTestSupport
import Testing

/// The escalation ladder, driven by the test clock on both databases: who is told when, what
/// stops the climb, what happens when nobody answers, and that nothing is skipped or sent twice.
/// PostgreSQL runs when `LIFESIGNAL_TEST_POSTGRES_URL` is set (`eval "$(scripts/postgres.sh start)"`).
@Suite("Escalation ladder", .timeLimit(.minutes(3)))
struct LadderTests {
    typealias Backend = TestBackend

    /// Ada (8-hour rhythm, 10-minute grace) with Cleo (her key holder), Bob and Dan, and the
    /// ladder "Cleo; Bob after 15 minutes; everyone else 15 minutes later".
    struct Scene {
        let world: TestWorld
        let engine: EscalationEngine
        let ada: Caller
        let cleo: Caller
        let bob: Caller
        let dan: Caller
        var ladders: Ladders { Ladders(world.core) }

        /// When Ada's incident opens: her deadline plus the grace.
        var opensAt: Date { TestWorld.start.addingTimeInterval(8 * 3600 + 600) }

        func alerts(_ caller: Caller) async throws -> [LifeSignalModels.Notification] {
            try await world.notifications(caller).reversed().filter { $0.type == .incidentOpened || $0.type == .manualAlert }
        }

        func told(_ caller: Caller) async throws -> [LifeSignalModels.Notification] {
            try await world.notifications(caller).reversed().filter { $0.category == .alerts }
        }
    }

    /// Runs `body` in a scene on `backend`; a PostgreSQL database of its own is dropped after.
    func withScene(_ backend: Backend, ladder: Bool = true, _ body: (Scene) async throws -> Void) async throws {
        let (world, drop) = try await TestWorld.on(backend)
        do {
            var ada = try await world.signUp("Ada", phone: "+447700900100")
            let cleo = try await world.signUp("Cleo", phone: "+447700900103")
            let bob = try await world.signUp("Bob", phone: "+447700900101")
            let dan = try await world.signUp("Dan", phone: "+447700900104")
            ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: .interval(seconds: 8 * 3600)))
            for responder in [bob, cleo, dan] {
                try await world.link(responder: responder, dependent: ada)
                world.clock.advance(by: 1)
            }
            _ = try await world.contacts.setKeyHolder(ada, contact: cleo.user.id, keyHolder: true)
            world.clock.set(TestWorld.start)
            _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            let scene = Scene(
                world: world, engine: EscalationEngine(core: world.core, instance: "test"), ada: ada, cleo: cleo, bob: bob, dan: dan)
            if ladder {
                _ = try await scene.ladders.setLadder(
                    ada,
                    LadderChange(
                        steps: [
                            Ladder.Step(responders: [cleo.user.id], waitMinutes: 0),
                            Ladder.Step(responders: [bob.user.id], waitMinutes: 15),
                            Ladder.Step(responders: [], waitMinutes: 15),
                        ], version: 0))
            }
            try await body(scene)
        } catch {
            await drop()
            throw error
        }
        await drop()
    }

    /// Opens Ada's missed check-in incident and returns it.
    func open(_ scene: Scene) async throws -> IncidentID {
        scene.world.clock.set(scene.opensAt.addingTimeInterval(-600))
        try await scene.engine.runPass()
        scene.world.clock.set(scene.opensAt)
        #expect(try await scene.engine.runPass().incidentsOpened == 1)
        return try #require(try await scene.world.checkIns.status(scene.ada).openIncident?.id)
    }

    @Test(arguments: Backend.all)
    func aMissedCheckInClimbsStepByStepAndEndsExhausted(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let (world, engine, ada, cleo, bob, dan) = (scene.world, scene.engine, scene.ada, scene.cleo, scene.bob, scene.dan)
            let id = try await open(scene)
            // Her last call named who is told first, not everyone.
            let lastCall = try #require(try await world.notifications(ada).first { $0.type == .nonResponsive })
            #expect(lastCall.body == "Check in now, or Cleo Tester will be alerted in 10 minutes.")
            // Step 1: Cleo only. Ada is told it is Cleo.
            #expect(try await scene.alerts(cleo).count == 1)
            #expect(try await scene.alerts(bob).isEmpty)
            #expect(try await scene.alerts(dan).isEmpty)
            #expect(try await world.notifications(ada).first { $0.type == .alertSent }?.body.contains("Cleo Tester") == true)
            #expect(try await scene.alerts(cleo)[0].body.contains("has a key") == false)

            // Step 2, 15 minutes later: Bob, told Cleo has a key; Cleo hears Bob was told too.
            world.clock.set(scene.opensAt.addingTimeInterval(15 * 60))
            #expect(try await engine.runPass().steps == 1)
            let bobs = try await scene.alerts(bob)
            #expect(bobs.count == 1)
            #expect(bobs[0].body.contains("Cleo Tester has a key."))
            #expect(try await scene.alerts(cleo).last?.body.contains("Bob Tester has now been told too.") == true)
            #expect(try await world.notifications(ada).first?.title == "Bob Tester is being told now")
            #expect(try await scene.alerts(dan).isEmpty)
            #expect(try await engine.runPass().total == 0)

            // Step 3, everyone else: Dan.
            world.clock.set(scene.opensAt.addingTimeInterval(30 * 60))
            #expect(try await engine.runPass().steps == 1)
            #expect(try await scene.alerts(dan).count == 1)
            let status = try await world.checkIns.status(ada).openIncident
            #expect(status?.step == 3 && status?.steps == 3 && status?.nextStepAt == nil)

            // 30 minutes after the last step with nobody on it: everyone is called, Ada is
            // called back, both with the emergency number; once.
            world.clock.set(scene.opensAt.addingTimeInterval(60 * 60))
            let pass = try await engine.runPass()
            #expect(pass.exhausted == 1)
            for responder in [cleo, bob, dan] {
                let call = try #require(
                    try await world.notifications(responder).first { $0.title == "Nobody has confirmed they are coming for Ada Tester" })
                #expect(call.body.contains("call 999"))
                let deliveries = try await world.notifications.deliveries(responder, notification: call.id)
                #expect(deliveries.first?.channel == .voice, "the phone rings first")
            }
            let callBack = try #require(try await world.notifications(ada).first { $0.title == "Nobody has confirmed they are coming yet" })
            #expect(callBack.body.contains("call 999"))
            #expect(try await world.notifications.deliveries(ada, notification: callBack.id).first?.channel == .voice)
            #expect(try await world.checkIns.status(ada).openIncident?.exhaustedAt != nil)
            #expect(try await world.timeline.timeline(ada).filter { $0.kind == "ladder_exhausted" }.count == 1)
            #expect(try await engine.runPass().exhausted == 0)
            world.clock.advance(by: 15 * 60)
            #expect(try await engine.runPass().exhausted == 0, "repeats go on, the calls are not made twice")

            // Everyone who was told hears the all-clear.
            _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            for responder in [cleo, bob, dan] {
                #expect(try await world.notifications(responder).first?.type == .incidentResolved)
            }
            #expect(try await world.incidents.incidentReport(ada, id: id).incident.ladder?.exhaustedAt != nil)
            #expect(try await world.timeline.verifyTimeline(ada).valid)
        }
    }

    @Test(arguments: Backend.all)
    func anAcknowledgementOneSecondBeforeStep2MeansStep2IsNeverSent(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let (world, engine) = (scene.world, scene.engine)
            let id = try await open(scene)
            world.clock.set(scene.opensAt.addingTimeInterval(15 * 60 - 1))
            _ = try await world.incidents.acknowledge(scene.cleo, incident: id)
            world.clock.set(scene.opensAt.addingTimeInterval(15 * 60 + 1))
            #expect(try await engine.runPass().total == 0)
            world.clock.set(scene.opensAt.addingTimeInterval(45 * 60))
            #expect(try await engine.runPass().total == 0)
            #expect(try await scene.told(scene.bob).isEmpty, "Bob never heard of it, not even that Cleo is on it")
            #expect(try await scene.told(scene.dan).isEmpty)
            // The all-clear goes only to who was told.
            _ = try await world.checkIns.checkIn(scene.ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            #expect(try await world.notifications(scene.cleo).first?.type == .incidentResolved)
            #expect(try await scene.told(scene.bob).isEmpty)
            #expect(try await scene.told(scene.dan).isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func anAcknowledgementAndADueStepInOnePassSendNothingAfterIt(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let id = try await open(scene)
            // Step 2 is due; the acknowledgement commits first, then the engine looks.
            scene.world.clock.set(scene.opensAt.addingTimeInterval(15 * 60))
            _ = try await scene.world.incidents.acknowledge(scene.cleo, incident: id)
            #expect(try await scene.engine.runPass().total == 0)
            #expect(try await scene.alerts(scene.bob).isEmpty)
        }
    }

    @Test(arguments: Backend.all)
    func aLapsedClaimResumesAtTheNextStepAndTellsTheClaimant(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let (world, engine) = (scene.world, scene.engine)
            let id = try await open(scene)
            world.clock.set(scene.opensAt.addingTimeInterval(60))
            _ = try await world.incidents.acknowledge(scene.cleo, incident: id)
            world.clock.set(scene.opensAt.addingTimeInterval(61 * 60))
            let pass = try await engine.runPass()
            #expect(pass.claimsExpired == 1)
            #expect(pass.steps == 1)
            #expect(try await scene.alerts(scene.bob).count == 1)
            #expect(try await scene.alerts(scene.dan).isEmpty, "one step, not the two whose times passed")
            #expect(
                try await world.notifications(scene.cleo).contains { $0.title == "Your “I'm on it” for Ada Tester has lapsed" })
            // The step after keeps its wait from the resumed one.
            world.clock.advance(by: 15 * 60)
            #expect(try await engine.runPass().steps == 1)
            #expect(try await scene.alerts(scene.dan).count == 1)
        }
    }

    @Test(arguments: Backend.all)
    func anSOSReachesEveryStepAtOnce(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            _ = try await scene.world.incidents.raiseAlert(scene.ada)
            for responder in [scene.cleo, scene.bob, scene.dan] {
                #expect(try await scene.alerts(responder).map(\.type) == [.manualAlert])
            }
        }
    }

    @Test(arguments: Backend.all)
    func anEditDuringAnIncidentKeepsItsSnapshotAndARemovedResponderGetsNothing(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let (world, engine, ada) = (scene.world, scene.engine, scene.ada)
            _ = try await open(scene)
            // Ada puts Dan first now, and Bob stops watching over her.
            _ = try await scene.ladders.setLadder(
                ada, LadderChange(steps: [Ladder.Step(responders: [scene.dan.user.id], waitMinutes: 0)], version: 1))
            try await world.contacts.removeContact(scene.bob, contact: ada.user.id)
            #expect(try await scene.alerts(scene.dan).isEmpty, "the open incident keeps its ladder")
            // Step 2 was Bob's: nobody on it can be told, so step 3 (Dan) is told at once.
            world.clock.set(scene.opensAt.addingTimeInterval(15 * 60))
            #expect(try await engine.runPass().steps == 1)
            #expect(try await scene.alerts(scene.bob).isEmpty)
            #expect(try await scene.alerts(scene.dan).count == 1)
        }
    }

    @Test(arguments: Backend.all)
    func aTwoHourOutageOverThreeStepsSendsOneLateStep(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let (world, engine) = (scene.world, scene.engine)
            _ = try await open(scene)
            world.clock.set(scene.opensAt.addingTimeInterval(2 * 3600))
            let pass = try await engine.runPass()
            #expect(pass.steps == 1 && pass.late == 1)
            #expect(try await scene.alerts(scene.bob).count == 1)
            #expect(try await scene.alerts(scene.dan).count == 1)
            #expect(try await scene.alerts(scene.dan)[0].body.hasPrefix("This was due "))
            #expect(try await scene.alerts(scene.bob)[0].body.hasPrefix("This was due "))
            #expect(try await scene.alerts(scene.cleo).count == 2, "Cleo hears it once more, not once per missed step")
            #expect(try await engine.runPass().total == 0)
        }
    }

    @Test(arguments: Backend.all)
    func aStepNobodyCouldBeReachedOnFiresTheNextAtOnce(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let (world, engine) = (scene.world, scene.engine)
            _ = try await open(scene)
            let outbox = StoreOutbox(core: world.core)
            let now = world.clock.now
            let due = try await outbox.claimDue(now: now, limit: 100, owner: "test", leaseUntil: now.addingTimeInterval(3600))
            let cleos = due.filter { $0.message.recipientID == scene.cleo.user.id }
            #expect(!cleos.isEmpty)
            try await outbox.record(
                cleos.map {
                    AttemptRecord(deliveryID: $0.message.deliveryID, outcome: .failed(reason: "The number does not exist."), at: now)
                })
            world.clock.advance(by: 1)
            #expect(try await engine.runPass().steps == 1)
            #expect(try await scene.alerts(scene.bob).count == 1, "Bob is told now, not in 15 minutes")
        }
    }

    @Test(arguments: Backend.all)
    func savingIsCheckedAndVersioned(_ backend: Backend) async throws {
        try await withScene(backend, ladder: false) { scene in
            let (ladders, ada, bob, cleo) = (scene.ladders, scene.ada, scene.bob, scene.cleo)
            #expect(try await ladders.ladder(ada) == .default)
            let stranger = try await scene.world.signUp("Eve", phone: "+447700900109")
            let bad: [(LadderChange, String)] = [
                (LadderChange(steps: [], version: 0), "A ladder needs at least one step."),
                (LadderChange(steps: [Ladder.Step(responders: [bob.user.id], waitMinutes: 5)], version: 0), "Step 1: the first step"),
                (
                    LadderChange(
                        steps: [
                            Ladder.Step(responders: [bob.user.id], waitMinutes: 0),
                            Ladder.Step(responders: [cleo.user.id], waitMinutes: 121),
                        ],
                        version: 0), "Step 2: the wait must be between 1 and 120 minutes."
                ),
                (
                    LadderChange(steps: [Ladder.Step(responders: [stranger.user.id], waitMinutes: 0)], version: 0),
                    "Step 1: that person does not watch over you"
                ),
                (
                    LadderChange(
                        steps: [
                            Ladder.Step(responders: [bob.user.id], waitMinutes: 0), Ladder.Step(responders: [bob.user.id], waitMinutes: 10),
                        ],
                        version: 0), "Step 2: Bob Tester is on an earlier step already."
                ),
                (
                    LadderChange(
                        steps: [Ladder.Step(responders: [], waitMinutes: 0), Ladder.Step(responders: [bob.user.id], waitMinutes: 10)],
                        version: 0),
                    "Step 1: add someone"
                ),
                (
                    LadderChange(steps: (0..<7).map { Ladder.Step(responders: [], waitMinutes: $0 == 0 ? 0 : 10) }, version: 0),
                    "A ladder has at most 6 steps."
                ),
            ]
            for (change, said) in bad {
                do {
                    _ = try await ladders.setLadder(ada, change)
                    Issue.record("saved: \(change)")
                } catch let error as ServiceError {
                    #expect(error.code == .invalidSteps)
                    #expect(error.message.contains(said), "\(error.message)")
                }
            }
            #expect(try await ladders.ladder(ada) == .default, "nothing was saved")
            let saved = try await ladders.setLadder(
                ada,
                LadderChange(
                    steps: [Ladder.Step(responders: [cleo.user.id], waitMinutes: 0), Ladder.Step(responders: [], waitMinutes: 20)],
                    version: 0))
            #expect(saved.version == 1)
            do {
                _ = try await ladders.setLadder(ada, LadderChange(steps: [Ladder.Step(responders: [], waitMinutes: 0)], version: 0))
                Issue.record("a stale save was taken")
            } catch let error as ServiceError {
                #expect(error.code == .ladderChanged)
            }
            #expect(try await ladders.ladder(ada) == saved)
            // The preview says it with real times: the deadline 08:00 after the start, plus grace.
            let preview = try await ladders.preview(ada)
            #expect(preview.steps.map { $0.members.map(\.name) } == [["Cleo Tester"], ["Bob Tester", "Dan Tester"]])
            #expect(preview.steps[1].at.timeIntervalSince(preview.steps[0].at) == 20 * 60)
            #expect(preview.steps[0].members[0].keyHolder)
            #expect(preview.sentence.hasPrefix("If you miss "))
            #expect(preview.sentence.contains("nobody has answered: everyone is called"))
            // The escalation preview climbs the same ladder.
            let planned = try await Drills(scene.world.core).timelinePreview(ada).filter { $0.kind == .incident }
            #expect(planned.map { $0.responders.map(\.name) } == [["Cleo Tester"], ["Bob Tester", "Dan Tester"]])
            #expect(planned.map(\.at) == preview.steps.map(\.at))
        }
    }

    @Test(arguments: Backend.all)
    func onlyARespondersKeyCanBeMarkedAndItIsNamedFirst(_ backend: Backend) async throws {
        try await withScene(backend, ladder: false) { scene in
            let stranger = try await scene.world.signUp("Eve", phone: "+447700900109")
            // Eve watches nobody of Ada's; Ada watching over Bob does not make Ada Bob's key holder.
            await #expect(throws: ServiceError.self) {
                _ = try await scene.world.contacts.setKeyHolder(scene.ada, contact: stranger.user.id, keyHolder: true)
            }
            await #expect(throws: ServiceError.self) {
                _ = try await scene.world.contacts.setKeyHolder(scene.bob, contact: scene.ada.user.id, keyHolder: true)
            }
            #expect(try await scene.world.contacts.contact(scene.ada, id: scene.cleo.user.id).keyHolder == true)
            #expect(try await scene.world.contacts.contact(scene.ada, id: scene.bob.user.id).keyHolder == false)
            // The default ladder tells everyone at once, Cleo named first to Ada and to the others.
            _ = try await open(scene)
            let alerted = try #require(try await scene.world.notifications(scene.ada).first { $0.type == .alertSent })
            #expect(alerted.body.contains("Cleo Tester, Bob Tester"), "\(alerted.body)")
            #expect(try await scene.alerts(scene.dan)[0].body.contains("Cleo Tester has a key."))
        }
    }

    @Test(arguments: Backend.all)
    func eachResponderSeesTheirPlaceOnHerLadder(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let contacts = scene.world.contacts
            let ada = scene.ada.user.id
            let cleos = try await contacts.contact(scene.cleo, id: ada).ladderPlace
            let bobs = try await contacts.contact(scene.bob, id: ada).ladderPlace
            let dans = try await contacts.contact(scene.dan, id: ada).ladderPlace
            #expect(cleos == LadderPlace(step: 1, steps: 3, afterMinutes: 0, before: []))
            #expect(bobs == LadderPlace(step: 2, steps: 3, afterMinutes: 15, before: ["Cleo Tester"]))
            #expect(dans == LadderPlace(step: 3, steps: 3, afterMinutes: 30, before: ["Cleo Tester", "Bob Tester"]))
            // Ada's own view of her responders carries no place: it is about watching her.
            #expect(try await contacts.contact(scene.ada, id: scene.bob.user.id).ladderPlace == nil)
        }
    }

    /// A drill reaches everyone at once (it tests every channel now), and each of her ladder's
    /// people reads which step is theirs and when it would come; the report says the same.
    @Test(arguments: Backend.all)
    func aDrillTellsEachResponderTheirStepAndWhenTheyWouldBeTold(_ backend: Backend) async throws {
        try await withScene(backend) { scene in
            let (world, ada, cleo, bob, dan) = (scene.world, scene.ada, scene.cleo, scene.bob, scene.dan)
            let report = try await world.drills.runDrill(ada)
            let drills = { (caller: Caller) in try await world.notifications(caller).filter { $0.type == .drill } }
            let test = "This is only a test of how you would be alerted about Ada Tester. No action is needed."
            #expect(try await drills(cleo).map(\.body) == ["\(test) In a real alert you would be told at once: step 1 of 3."])
            #expect(
                try await drills(bob).map(\.body) == [
                    "\(test) In a real alert you are on step 2 of 3: told 15 minutes after it opens if nobody has said “I'm on it” by then."
                ])
            #expect(
                try await drills(dan).map(\.body) == [
                    "\(test) In a real alert you are on step 3 of 3: told 30 minutes after it opens if nobody has said “I'm on it” by then."
                ])
            let expected: [UserID: LadderPlace] = [
                cleo.user.id: LadderPlace(step: 1, steps: 3, afterMinutes: 0, before: []),
                bob.user.id: LadderPlace(step: 2, steps: 3, afterMinutes: 15, before: ["Cleo Tester"]),
                dan.user.id: LadderPlace(step: 3, steps: 3, afterMinutes: 30, before: ["Cleo Tester", "Bob Tester"]),
            ]
            #expect(Dictionary(uniqueKeysWithValues: report.recipients.map { ($0.userID, $0.ladderPlace) }) == expected)
            // Read back later, after she changed her ladder: the places are the drill's.
            _ = try await scene.ladders.setLadder(
                ada, LadderChange(steps: [Ladder.Step(responders: [], waitMinutes: 0)], version: 1))
            let again = try await world.drills.drill(ada, id: report.id)
            #expect(Dictionary(uniqueKeysWithValues: again.recipients.map { ($0.userID, $0.ladderPlace) }) == expected)

            // Everyone at once again: the drill says nothing of steps.
            let plain = try await world.drills.runDrill(ada)
            #expect(plain.recipients.allSatisfy { $0.ladderPlace == nil })
            #expect(try await drills(bob).first?.body == test)
        }
    }
}
