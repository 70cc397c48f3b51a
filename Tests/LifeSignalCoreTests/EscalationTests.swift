import Foundation
import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("Escalation engine")
struct EscalationTests {
    /// Ada (8-hour rhythm, 30-minute reminder, 10-minute grace) watched over by Bob and Cy.
    func scenario() async throws -> (TestWorld, EscalationEngine, Caller, Caller, Caller) {
        let world = try await TestWorld()
        var ada = try await world.signUp("Ada", phone: "+447700900100")
        let bob = try await world.signUp("Bob", phone: "+447700900101")
        let cy = try await world.signUp("Cy", phone: "+447700900102")
        ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: .interval(seconds: 8 * 3600)))
        try await world.link(responder: bob, dependent: ada)
        try await world.link(responder: cy, dependent: ada)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        return (world, EscalationEngine(core: world.core, instance: "test"), ada, bob, cy)
    }

    func types(_ world: TestWorld, _ caller: Caller) async throws -> [Notification.Kind] {
        try await world.notifications(caller).reversed().map(\.type).filter { $0.category != .contacts }
    }

    @Test func fullEscalationWithAcknowledgementExpiryAndAllClear() async throws {
        let (world, engine, ada, bob, cy) = try await scenario()
        let t = TestWorld.start
        // Nothing due right after the check-in.
        #expect(try await engine.runPass().total == 0)

        world.clock.set(t.addingTimeInterval(8 * 3600 - 1800))
        #expect(try await engine.runPass().reminders == 1)
        #expect(try await engine.runPass().total == 0)

        world.clock.set(t.addingTimeInterval(8 * 3600))
        #expect(try await engine.runPass().lastCalls == 1)
        #expect(try await world.checkIns.status(ada).state == .nonResponsive)
        #expect(try await types(world, ada) == [.reminder, .nonResponsive])
        #expect(try await types(world, bob).isEmpty)

        world.clock.set(t.addingTimeInterval(8 * 3600 + 600))
        let opened = try await engine.runPass()
        #expect(opened.incidentsOpened == 1)
        #expect(!opened.late.description.isEmpty && opened.late == 0)
        #expect(try await types(world, bob) == [.incidentOpened])
        #expect(try await types(world, cy) == [.incidentOpened])
        let incidentID = try #require(try await world.checkIns.status(ada).openIncident?.id)

        // Repeats every 15 minutes while unacknowledged.
        world.clock.advance(by: 900)
        #expect(try await engine.runPass().repeats == 1)
        #expect(try await types(world, bob) == [.incidentOpened, .incidentOpened])

        // Bob is on it: Cy is told, repeats stop.
        world.clock.advance(by: 60)
        let claimed = try await world.incidents.acknowledge(bob, incident: incidentID)
        #expect(claimed.acknowledgedBy == bob.user.id)
        #expect(try await types(world, cy).last == .incidentAcknowledged)
        world.clock.advance(by: 1800)
        #expect(try await engine.runPass().total == 0)

        // The claim lapses after 60 minutes: notifications resume at once.
        world.clock.advance(by: 1800)
        let resumed = try await engine.runPass()
        #expect(resumed.claimsExpired == 1)
        #expect(resumed.repeats == 1)
        #expect(try await types(world, bob).filter { $0 == .incidentOpened }.count == 3)

        // Ada checks in: the incident resolves and everyone who was told gets the all-clear.
        world.clock.advance(by: 60)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        #expect(try await types(world, bob).last == .incidentResolved)
        #expect(try await types(world, cy).last == .incidentResolved)
        let report = try await world.incidents.incidentReport(bob, id: incidentID)
        #expect(report.incident.resolution == .checkedIn)
        #expect(report.recipients.count == 2)
        #expect(report.recipients.allSatisfy { !$0.deliveries.isEmpty })
        #expect(try await world.checkIns.status(ada).state == .ok)
        #expect(try await world.timeline.verifyTimeline(ada).valid)
    }

    @Test func missedDeadlinesWhileDownAreProcessedOnceAndMarkedLate() async throws {
        let (world, engine, ada, bob, _) = try await scenario()
        world.clock.set(TestWorld.start.addingTimeInterval(8 * 3600 + 3 * 3600))
        let pass = try await engine.runPass()
        #expect(pass.reminders == 0, "a reminder for a deadline already past is skipped")
        #expect(pass.lastCalls == 1)
        #expect(pass.incidentsOpened == 1)
        #expect(pass.late == 2)
        let incident = try #require(try await world.checkIns.status(ada).openIncident)
        #expect(try await world.incidents.incidentReport(bob, id: incident.id).incident.late)
        // A second engine pass, or a second engine, does nothing more.
        #expect(try await EscalationEngine(core: world.core, instance: "other").runPass().total == 0)
        #expect(try await types(world, bob) == [.incidentOpened])
    }

    @Test func twoEnginesRacingTakeEachStepOnce() async throws {
        let world = try await TestWorld()
        var dependents: [Caller] = []
        let bob = try await world.signUp("Bob", phone: "+447700900200")
        for i in 0..<20 {
            let d = try await world.signUp("Dee", phone: "+4477009003\(String(format: "%02d", i))")
            try await world.link(responder: bob, dependent: d)
            dependents.append(d)
        }
        world.clock.advance(by: 86400 + 601)
        // Bob checks in now, so only his dependents are due.
        _ = try await world.checkIns.checkIn(bob, id: CheckInID(UUID()), clientAt: nil, source: .app)
        let a = EscalationEngine(core: world.core, instance: "a")
        let b = EscalationEngine(core: world.core, instance: "b")
        async let first = a.runPass()
        async let second = b.runPass()
        let (x, y) = try await (first, second)
        #expect(x.incidentsOpened + y.incidentsOpened == 20)
        let bobs = try await world.notifications(bob).filter { $0.type == .incidentOpened }
        #expect(bobs.count == 20)
    }

    /// One engine batch takes different people's different steps together: each gets exactly
    /// their own due steps, their timeline keeps the steps' order and verifies, and a second
    /// pass finds nothing left.
    @Test func oneBatchTakesEachPersonsOwnStepsInOrder() async throws {
        let world = try await TestWorld()
        let t = TestWorld.start
        let bob = try await world.signUp("Bob", phone: "+447700900400")
        var people: [String: Caller] = [:]
        // Everyone on an 8-hour rhythm with a 30-minute reminder and 10 minutes' grace, checking
        // in at a different minute; Eve has no responders.
        for (index, (name, minute)) in [("Bea", 0), ("Cal", 5), ("Abe", 40), ("Dot", 60), ("Eve", 0)].enumerated() {
            var person = try await world.signUp(name, phone: "+44770090041\(index)")
            person.user = try await world.profiles.updateProfile(person, ProfileChanges(schedule: .interval(seconds: 8 * 3600)))
            if name != "Eve" { try await world.link(responder: bob, dependent: person) }
            world.clock.set(t.addingTimeInterval(TimeInterval(minute * 60)))
            _ = try await world.checkIns.checkIn(person, id: CheckInID(UUID()), clientAt: nil, source: .app)
            people[name] = person
        }
        _ = try await world.checkIns.checkIn(bob, id: CheckInID(UUID()), clientAt: nil, source: .app)

        // 8 h 12 min after the start: Bea and Eve are past grace, Cal past his deadline only,
        // Abe at his reminder, Dot not due.
        world.clock.set(t.addingTimeInterval(8 * 3600 + 12 * 60))
        let pass = try await EscalationEngine(core: world.core, instance: "batch").runPass()
        #expect(pass.reminders == 1)
        #expect(pass.lastCalls == 3)
        #expect(pass.incidentsOpened == 2)
        #expect(try await EscalationEngine(core: world.core, instance: "batch").runPass().total == 0)

        #expect(try await types(world, people["Abe"]!) == [.reminder])
        // Bea and Eve are told who was alerted: Bob, and nobody.
        // Notices written in the same instant have no fixed order between them (their ids are
        // random within a millisecond): compare them as sets, and find the notice by its kind.
        let beas = try await types(world, people["Bea"]!)
        let eves = try await types(world, people["Eve"]!)
        #expect(beas.count == 2 && Set(beas) == [.nonResponsive, .alertSent])
        #expect(try await types(world, people["Cal"]!) == [.nonResponsive])
        #expect(try await types(world, people["Dot"]!).isEmpty)
        #expect(eves.count == 2 && Set(eves) == [.nonResponsive, .alertSent])
        let beaTold = try await world.notifications(people["Bea"]!).first { $0.type == .alertSent }
        let eveTold = try await world.notifications(people["Eve"]!).first { $0.type == .alertSent }
        #expect(beaTold?.title == "Bob Tester has been alerted")
        #expect(eveTold?.title == "Nobody is watching over you yet")
        let alerts = try await world.notifications(bob).filter { $0.type == .incidentOpened }
        #expect(alerts.map(\.subjectUserID) == [people["Bea"]!.user.id])

        #expect(try await world.checkIns.status(people["Bea"]!).openIncident != nil)
        #expect(try await world.checkIns.status(people["Eve"]!).openIncident != nil)
        #expect(try await world.checkIns.status(people["Cal"]!).state == .nonResponsive)
        #expect(try await world.checkIns.status(people["Cal"]!).openIncident == nil)

        /// What the person's timeline got after their check-in.
        func kinds(_ name: String) async throws -> [String] {
            let kinds = try await world.timeline.timeline(people[name]!).map(\.kind)
            return Array(kinds[(kinds.lastIndex(of: "check_in")! + 1)...])
        }
        #expect(try await kinds("Bea") == ["notification", "incident_opened", "notification", "notification"])
        #expect(try await kinds("Eve") == ["notification", "incident_opened", "notification"])
        #expect(try await kinds("Cal") == ["notification"])
        #expect(try await kinds("Abe") == ["notification"])
        for person in people.values { #expect(try await world.timeline.verifyTimeline(person).valid) }
    }

    @Test func pausedPeopleGetNoRemindersOrIncidents() async throws {
        let (world, engine, ada, bob, _) = try await scenario()
        let status = try await world.profiles.setPause(ada, until: TestWorld.start.addingTimeInterval(2 * 86400))
        #expect(status.state == .paused)
        // A day later Ada's 8-hour deadline is long gone, but she is paused: nothing for her.
        // (Bob and Cy, on the default 24-hour rhythm, have missed theirs: that is their business.)
        world.clock.set(TestWorld.start.addingTimeInterval(86400 + 3600))
        try await engine.runPass()
        #expect(try await types(world, ada).isEmpty)
        #expect(try await world.checkIns.status(ada).openIncident == nil)
        #expect(try await world.contacts.contacts(bob).dependents.first?.status?.state == .paused)
        // The pause ends by itself and a whole period follows it.
        world.clock.set(TestWorld.start.addingTimeInterval(2 * 86400 + 8 * 3600 + 601))
        #expect(try await engine.runPass().incidentsOpened == 1)
    }

    @Test func respondersCanCheckInOnSomeonesBehalf() async throws {
        let (world, engine, ada, bob, cy) = try await scenario()
        world.clock.set(TestWorld.start.addingTimeInterval(8 * 3600 + 601))
        try await engine.runPass()
        world.clock.advance(by: 60)
        let result = try await world.incidents.checkInOnBehalf(bob, of: ada.user.id, id: CheckInID(UUID()))
        #expect(result.checkIn.recordedBy == bob.user.id)
        #expect(result.checkIn.source == .responder)
        #expect(try await types(world, cy).last == .incidentResolved)
        let denied = await #expect(throws: ServiceError.self) {
            try await world.incidents.checkInOnBehalf(ada, of: bob.user.id, id: CheckInID(UUID()))
        }
        #expect(denied?.code == .notAResponder)
    }

    @Test func heartbeatShowsTheEngineIsAlive() async throws {
        let (world, engine, _, _, _) = try await scenario()
        #expect(await world.health.engineHealth().healthy == false)
        try await engine.runPass()
        #expect(await world.health.engineHealth().healthy)
        world.clock.advance(by: 120)
        #expect(await world.health.engineHealth().healthy == false)
    }
}
