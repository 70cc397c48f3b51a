import Foundation
import HTTPTypes
import HummingbirdTesting
import LifeSignalAPI
@testable import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import NIOCore
@_spi(Testing) import LifeSignalStore
import Testing

/// Plans ("check on me by 18:00") with the test clock, on both databases: the details sealed
/// until she is late, the steps taken once, extensions, "I'm back" and calling off, by API and
/// by text.
struct PlanTests {
    static let details = "Route: Rax north face via Gaisloch; car VW Golf W-4711X at Preiner Gscheid"

    /// Ada with a plan due in two hours (details sealed), Bob her responder, Cy a stranger.
    func scenario(
        _ world: TestWorld, _ client: any TestClientProtocol, phones: Int
    ) async throws -> (ada: Caller, bob: Caller, cy: Caller, plan: Plan, tokens: (ada: String, bob: String)) {
        let adaPerson = try await person(world, client, "Ada", phone: "+4477009\(phones)1")
        let bobPerson = try await person(world, client, "Bob", phone: "+4477009\(phones)2")
        let (ada, bob) = (adaPerson.caller, bobPerson.caller)
        let cy = try await person(world, client, "Cy", phone: "+4477009\(phones)3").caller
        try await world.link(responder: bob, dependent: ada)
        let plan = try await world.plans.start(
            ada,
            PlanRequest(
                title: " Hiking the Rax trail ", dueAt: world.clock.now.addingTimeInterval(7200), details: Self.details,
                instruction: "Call mountain rescue 140", instructionAt: world.clock.now.addingTimeInterval(3 * 3600)))
        return (ada, bob, cy, plan, (adaPerson.token, bobPerson.token))
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test(arguments: TestBackend.all)
    func detailsOpenOnlyOnceSheIsLateAndNeverInAMessage(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, bob, cy, plan, tokens) = try await scenario(world, client, phones: 11)
            #expect(plan.title == "Hiking the Rax trail")
            #expect(plan.details == Self.details)
            // Bob is told the headline and the time, never the details.
            let started = try #require(try await world.notifications(bob).first { $0.type == .planStarted })
            #expect(started.title == "Ada Tester: Hiking the Rax trail")
            #expect(started.body.contains("expects to be back"))
            #expect(!(try await world.everythingSent()).contains("Gaisloch"))
            // Hers to read; nobody else's (`/v1/me/plans` is the caller's own).
            #expect(try await world.plans.list(ada).map(\.details) == [Self.details])
            #expect(try await world.plans.list(bob).isEmpty)

            // 15 minutes before: her reminder. At the time: she is told she is late. Nobody else hears.
            world.clock.advance(by: 7200 - 15 * 60)
            try await world.settle(instance: "plans")
            #expect(
                try await world.notifications(ada).contains { $0.type == .planReminder && $0.title == "Back soon? Hiking the Rax trail" })
            world.clock.advance(by: 15 * 60)
            try await world.settle(instance: "plans")
            let late = try #require(try await world.notifications(ada).first { $0.type == .planLate })
            #expect(late.body.contains("Bob Tester"))
            #expect(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.isEmpty)

            // After her grace: the alert opens, of its own kind, naming the plan.
            world.clock.advance(by: Double(ada.user.graceMinutes) * 60 + 1)
            try await world.settle(instance: "plans")
            let incident = try #require(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.first)
            #expect(incident.kind == .planOverdue)
            #expect(incident.planID == plan.id)
            let alert = try #require(try await world.notifications(bob).first { $0.incidentID == incident.id })
            #expect(alert.title == "Ada Tester is late back from: Hiking the Rax trail")
            #expect(try await world.plans.list(ada).first?.state == .overdue)
            // Bob's Home and his list of people say she is late back, as the alert does: not a missed check-in.
            let home = try await ResponderPagesTests.page(client, "/", tokens.bob)
            #expect(home.contains("Ada Tester is late back") && home.contains("Was due back"), "\(home)")
            #expect(!home.contains("missed a check-in"))
            let people = try await ResponderPagesTests.page(client, "/contacts", tokens.bob)
            #expect(people.contains("Late back — open incident") && !people.contains("Missed check-in"), "\(people)")

            // The report shows the plan's headline, times and instruction, not the details.
            let report = try await world.incidents.incidentReport(bob, id: incident.id)
            #expect(report.plan?.title == "Hiking the Rax trail")
            #expect(report.plan?.hasDetails == true)
            #expect(report.plan?.instruction == "Call mountain rescue 140")
            #expect(!(try Self.json(report)).contains("Gaisloch"))
            let overHTTP = try await client.call(Operations.getIncident, ["id": incident.id.description], token: tokens.bob)
            #expect(overHTTP.status == .ok)
            #expect(!String(decoding: overHTTP.body, as: UTF8.self).contains("Gaisloch"))
            // A stranger cannot open them; Bob can, and the reading is recorded and told to her.
            await #expect(throws: ServiceError.self) { try await world.sealedDetails.open(cy, incident: incident.id) }
            let opened = try await world.sealedDetails.open(bob, incident: incident.id, via: "api")
            #expect(opened.planDetails == Self.details)
            #expect(try await world.timeline.timeline(ada).contains { $0.summary == "Bob Tester read the sealed details" })
            #expect(try await world.notifications(ada).contains { $0.type == .sealedDetailsRead })
            // Still in no message and no record but the plan's own row.
            #expect(!(try await world.everythingSent()).contains("Gaisloch"))

            // "I'm back": the alert ends, she is checked in, the details close again.
            let done = try await world.plans.done(ada, plan: plan.id, source: .app)
            #expect(done.state == .done)
            let after = try await world.incidents.incidentReport(bob, id: incident.id)
            #expect(after.incident.resolution == .checkedIn)
            #expect(try await world.notifications(bob).contains { $0.type == .incidentResolved })
            await #expect(throws: ServiceError.self) { try await world.sealedDetails.open(bob, incident: incident.id) }
            #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 5).first?.at == world.clock.now)
            #expect(try await world.timeline.verifyTimeline(ada).valid)
        }
    }

    @Test(arguments: TestBackend.all)
    func anExtensionASecondBeforeItIsDuePreventsTheLateNoticeAndTheAlert(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, bob, _, plan, _) = try await scenario(world, client, phones: 21)
            world.clock.advance(by: 7199)
            try await world.settle(instance: "plans")
            let extended = try await world.plans.extend(ada, plan: plan.id, minutes: 60)
            #expect(extended.dueAt == plan.dueAt.addingTimeInterval(3600))
            #expect(extended.extensions == 1)
            // Past the old time and its grace: nothing.
            world.clock.advance(by: 1 + Double(ada.user.graceMinutes) * 60 + 1)
            try await world.settle(instance: "plans")
            #expect(!(try await world.notifications(ada)).contains { $0.type == .planLate })
            #expect(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.isEmpty)
            // Told to nobody: Bob heard only the start.
            #expect(!(try await world.notifications(bob)).contains { [.incidentOpened, .planEnded].contains($0.type) })
            // The new time's own reminder comes 15 minutes before it, once.
            world.clock.advance(by: 3600 - Double(ada.user.graceMinutes) * 60 - 2 - 15 * 60 + 1)
            try await world.settle(instance: "plans")
            try await world.settle(instance: "second")
            #expect(try await world.notifications(ada).filter { $0.type == .planReminder }.count == 2)
        }
    }

    @Test(arguments: TestBackend.all)
    func laterAndBackByTextAndAnOwnCheckInEndsALatePlan(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, bob, _, plan, _) = try await scenario(world, client, phones: 31)
            func text(_ body: String) async throws -> String {
                try await world.replies.receiveText(from: ada.user.phone, body: body, messageID: "SM\(UUID())") ?? ""
            }
            #expect(try await text("later 1h").hasPrefix("OK: “Hiking the Rax trail” now ends"))
            #expect(try await world.plans.list(ada).first?.dueAt == plan.dueAt.addingTimeInterval(3600))
            #expect(try await text("LATER 30").contains("Hiking the Rax trail"))
            #expect(try await world.plans.list(ada).first?.dueAt == plan.dueAt.addingTimeInterval(5400))
            #expect(try await text("later soon").contains("LATER 30"))
            #expect(try await world.plans.list(ada).first?.dueAt == plan.dueAt.addingTimeInterval(5400))

            // Late, and the alert open: BACK ends it and checks her in.
            world.clock.advance(by: 7200 + 5400 + Double(ada.user.graceMinutes) * 60 + 1)
            try await world.settle(instance: "plans")
            let incident = try #require(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.first)
            #expect(try await text("Back") == "Welcome back. “Hiking the Rax trail” is ended and you're checked in.")
            #expect(try await world.incidents.incidentReport(bob, id: incident.id).incident.resolution == .checkedIn)
            #expect(try await world.checkIns.checkIns(ada, before: nil, limit: 1).first?.source == .smsReply)
            #expect(try await text("BACK") == "You have no plan running. Reply OK to check in.")

            // A second plan, late: her plain "OK" answers it too.
            let second = try await world.plans.start(
                ada, PlanRequest(title: "Swim", dueAt: world.clock.now.addingTimeInterval(1800), tellResponders: false))
            world.clock.advance(by: 1800 + Double(ada.user.graceMinutes) * 60 + 1)
            try await world.settle(instance: "plans")
            let swim = try #require(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.first)
            #expect(swim.planID == second.id)
            _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            #expect(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.isEmpty)
            #expect(try await world.plans.list(ada).first { $0.id == second.id }?.state == .done)
            // Told nobody at its start, and nobody of its end but the alert's all-clear.
            #expect(!(try await world.notifications(bob)).contains { $0.type == .planStarted && $0.title.contains("Swim") })
        }
    }

    @Test(arguments: TestBackend.all)
    func cancellingErasesTheDetailsAndBadInputChangesNothing(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _, _, plan, tokens) = try await scenario(world, client, phones: 41)
            let bob = try await world.accounts.authenticate(token: tokens.bob).caller()
            // Bob can neither extend, end nor cancel Ada's plan: it is not found for him.
            for response in [
                try await client.call(
                    Operations.extendPlan, ["id": plan.id.description], token: tokens.bob, json: PlanExtensionBody(minutes: 30)),
                try await client.call(Operations.finishPlan, ["id": plan.id.description], token: tokens.bob, json: PlanDoneBody()),
                try await client.call(Operations.cancelPlan, ["id": plan.id.description], token: tokens.bob),
            ] {
                #expect(response.status == .notFound)
                #expect(response.error?.code == .planNotFound)
            }
            // Bad input: a clear error, nothing changed.
            let now = world.clock.now
            let bad: [(PlanBody, String)] = [
                (PlanBody(title: "", dueAt: now.addingTimeInterval(3600)), "title"),
                (PlanBody(title: String(repeating: "x", count: 81), dueAt: now.addingTimeInterval(3600)), "title"),
                (PlanBody(title: "Trip", dueAt: now.addingTimeInterval(-60)), "dueAt"),
                (PlanBody(title: "Trip", dueAt: now.addingTimeInterval(15 * 86400)), "dueAt"),
                (PlanBody(title: "Trip", dueAt: now.addingTimeInterval(3600), details: String(repeating: "d", count: 2001)), "details"),
                (
                    PlanBody(
                        title: "Trip", dueAt: now.addingTimeInterval(3600), instruction: "Call",
                        instructionAt: now.addingTimeInterval(60)), "instructionAt"
                ),
            ]
            for (body, field) in bad {
                let refused = try await client.call(Operations.startPlan, token: tokens.ada, json: body)
                #expect(refused.status == .badRequest, "\(field)")
                #expect(refused.error?.field == field)
            }
            let both = try await client.call(
                Operations.extendPlan, ["id": plan.id.description], token: tokens.ada,
                json: PlanExtensionBody(minutes: 30, until: now.addingTimeInterval(9000)))
            #expect(both.status == .badRequest)
            #expect(try await world.plans.list(ada).map(\.dueAt) == [plan.dueAt])

            // Three running at most.
            for title in ["Two", "Three"] {
                let made = try await client.call(
                    Operations.startPlan, token: tokens.ada, json: PlanBody(title: title, dueAt: now.addingTimeInterval(3600)))
                #expect(made.status == .created)
            }
            let fourth = try await client.call(
                Operations.startPlan, token: tokens.ada, json: PlanBody(title: "Four", dueAt: now.addingTimeInterval(3600)))
            #expect(fourth.status == .conflict)
            #expect(fourth.error?.code == .tooManyPlans)

            // Called off: the details are gone at once, the headline stays, and it cannot be ended twice.
            #expect(try await client.call(Operations.cancelPlan, ["id": plan.id.description], token: tokens.ada).status == .noContent)
            let row = try #require(try await world.store.read { try await $0.plans.plan(plan.id) })
            #expect(row.details == nil)
            #expect(row.state == .cancelled)
            #expect(row.title == "Hiking the Rax trail")
            let again = try await client.call(Operations.cancelPlan, ["id": plan.id.description], token: tokens.ada)
            #expect(again.status == .conflict)
            #expect(again.error?.code == .planEnded)
            #expect(try await world.notifications(bob).contains { $0.type == .planEnded && $0.title.contains("called off") })

            // A start-and-cancel loop cannot flood Bob: 20 starts a day, then a refusal that changes nothing.
            for made in try await world.plans.list(ada).filter(\.isRunning) { _ = try await world.plans.cancel(ada, plan: made.id) }
            var refused: APIResponse?
            for index in 0..<20 {
                let made = try await client.call(
                    Operations.startPlan, token: tokens.ada, json: PlanBody(title: "Loop \(index)", dueAt: now.addingTimeInterval(3600)))
                guard made.status == .created else {
                    refused = made
                    break
                }
                _ = try await world.plans.cancel(ada, plan: try made.decode(Plan.self).id)
            }
            #expect(refused?.status == .tooManyRequests)
            #expect(refused?.error?.code == .tooManyPlanStarts)
            #expect(try await world.plans.list(ada).filter(\.isRunning).isEmpty)
        }
    }

    @Test(arguments: TestBackend.all)
    func threePlansAndTheRhythmFireIndependentlyOnceEachWithTwoEngines(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, _ in
            let ada = try await world.signUp("Ada", phone: "+447700905101")
            let bob = try await world.signUp("Bob", phone: "+447700905102")
            try await world.link(responder: bob, dependent: ada)
            let now = world.clock.now
            var plans: [Plan] = []
            for (index, title) in ["Lake", "Ridge", "Cave"].enumerated() {
                plans.append(
                    try await world.plans.start(
                        ada, PlanRequest(title: title, dueAt: now.addingTimeInterval(Double(index + 1) * 3600), details: "d\(index)")))
            }
            // Past every plan and her 24-hour rhythm: each fires once, whichever engine takes it.
            world.clock.advance(by: 25 * 3600)
            let engines = [EscalationEngine(core: world.core, instance: "a"), EscalationEngine(core: world.core, instance: "b")]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for engine in engines { group.addTask { try await engine.runUntilIdle() } }
                try await group.waitForAll()
            }
            try await world.settle(instance: "c")
            let open = try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }
            #expect(open.filter { $0.kind == .planOverdue }.count == 3)
            #expect(Set(open.compactMap(\.planID)) == Set(plans.map(\.id)))
            #expect(open.filter { $0.kind == .missedCheckIn }.count == 1)
            let alerts = try await world.notifications(bob).filter { $0.type == .incidentOpened }
            #expect(alerts.count == 4)
            #expect(Set(alerts.compactMap(\.incidentID)).count == 4)
            // Her late notices: one per plan, none repeated.
            #expect(try await world.notifications(ada).filter { $0.type == .planLate }.count == 3)
        }
    }

    @Test(arguments: TestBackend.all)
    func endedPlansKeepTheirDetailsThirtyDaysThenOnlyTheHeadline(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _, _, plan, _) = try await scenario(world, client, phones: 61)
            _ = try await world.plans.done(ada, plan: plan.id, source: .web)
            world.clock.advance(by: 29 * 86400)
            _ = try await RetentionService(core: world.core).prune()
            #expect(try await world.store.read { try await $0.plans.plan(plan.id) }?.details == Self.details)
            world.clock.advance(by: 86400 + 1)
            let pass = try await RetentionService(core: world.core).prune()
            #expect(pass.planDetails == 1)
            let kept = try #require(try await world.store.read { try await $0.plans.plan(plan.id) })
            #expect(kept.details == nil)
            #expect(kept.title == "Hiking the Rax trail")
        }
    }

    @Test(arguments: TestBackend.all)
    func onTheWebSheStartsExtendsAndEndsAPlanAndBobSeesItOnlyOnTheAlert(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let ada = try await person(world, client, "Ada", phone: "+447700907101")
            let bob = try await person(world, client, "Bob", phone: "+447700907102")
            try await world.link(responder: bob.caller, dependent: ada.caller)
            let csrf = try await ResponderPagesTests.csrf(client, ada.token)
            @Sendable func post(_ path: String, _ fields: String) async throws -> (HTTPResponse.Status, String) {
                try await client.execute(
                    uri: path, method: .post,
                    headers: [.cookie: "ls_session=\(ada.token)", .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "_csrf=\(csrf)&" + fields)
                ) { ($0.status, String(buffer: $0.body)) }
            }
            #expect(try await ResponderPagesTests.page(client, "/", ada.token).contains(#"href="/plans""#))
            let empty = try await ResponderPagesTests.page(client, "/plans", ada.token)
            #expect(empty.contains(#"id="start-plan""#) && !empty.contains(#"id="running-plans""#))

            // A due time on her clock (the form's datetime-local), sealed details, an instruction.
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: ada.user.timeZone) ?? .gmt
            let due = world.clock.now.addingTimeInterval(2 * 3600)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: due)
            let local = String(
                format: "%04d-%02d-%02dT%02d%%3A%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
            let started = try await post(
                "/plans",
                "title=Hiking+the+Rax+trail&dueAt=\(local)&details=Route%3A+Gaisloch&instruction=Call+mountain+rescue+140")
            #expect(started.0 == .seeOther)
            let plan = try #require(try await world.plans.list(ada.caller).first)
            #expect(plan.title == "Hiking the Rax trail")
            #expect(abs(plan.dueAt.timeIntervalSince(due)) < 60)
            let running = try await ResponderPagesTests.page(client, "/plans", ada.token)
            #expect(running.contains(#"id="running-plans""#) && running.contains("Route: Gaisloch"))

            // +30 minutes: one press.
            #expect(try await post("/plans/\(plan.id)/extend", "minutes=30").0 == .seeOther)
            #expect(try await world.plans.list(ada.caller).first?.dueAt == plan.dueAt.addingTimeInterval(1800))

            // Bob has nothing to open before it is due: no alert, and her page is hers alone.
            #expect(!(try await ResponderPagesTests.page(client, "/plans", bob.token)).contains("Gaisloch"))
            #expect(!(try await ResponderPagesTests.page(client, "/", bob.token)).contains("Gaisloch"))

            // Late: Bob's alert page names the plan, its time and her instruction with a Call
            // button; the details open only at his asking.
            world.clock.advance(by: 2 * 3600 + 1800 + Double(ada.user.graceMinutes) * 60 + 1)
            try await world.settle(instance: "plans")
            let incident = try #require(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.first)
            let alert = try await ResponderPagesTests.page(client, "/incidents/\(incident.id)", bob.token)
            #expect(alert.contains(#"id="plan-title""#) && alert.contains("Hiking the Rax trail"))
            #expect(alert.contains(#"href="tel:140""#))
            #expect(!alert.contains("Gaisloch"))
            let bobCSRF = try await ResponderPagesTests.csrf(client, bob.token)
            let opened = try await client.execute(
                uri: "/incidents/\(incident.id)/sealed-details", method: .post,
                headers: [.cookie: "ls_session=\(bob.token)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(bobCSRF)")
            ) { String(buffer: $0.body) }
            #expect(opened.contains(#"id="plan-details""#) && opened.contains("Route: Gaisloch"))

            // "I'm back" from her page ends it; Bob's page says so and shows the plan, sealed again.
            #expect(try await post("/plans/\(plan.id)/back", "").0 == .seeOther)
            let after = try await ResponderPagesTests.page(client, "/incidents/\(incident.id)", bob.token)
            #expect(!after.contains("Gaisloch"))
            #expect(try await world.plans.list(ada.caller).first?.state == .done)
        }
    }

    @Test(arguments: TestBackend.all)
    func herRespondersSeeTheHeadlinesSheToldThemAndNobodyElseDoes(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _, _, plan, tokens) = try await scenario(world, client, phones: 81)
            let cy = try await person(world, client, "Cy", phone: "+447700908109")
            let quiet = try await world.plans.start(
                ada, PlanRequest(title: "Date with Max", dueAt: world.clock.now.addingTimeInterval(3 * 3600), tellResponders: false))
            // Bob: the plan she told him about, headline and time only; not the quiet one.
            let listed = try await client.call(Operations.listContactPlans, ["id": ada.user.id.description], token: tokens.bob)
            #expect(listed.status == .ok)
            #expect(try listed.decode([PlanHeadline].self).map(\.title) == ["Hiking the Rax trail"])
            #expect(!String(decoding: listed.body, as: UTF8.self).contains("Gaisloch"))
            #expect(!String(decoding: listed.body, as: UTF8.self).contains("rescue"))
            let page = try await ResponderPagesTests.page(client, "/contacts/\(ada.user.id)", tokens.bob)
            #expect(page.contains(#"id="contact-plans""#) && page.contains("Hiking the Rax trail"))
            #expect(!page.contains("Date with Max") && !page.contains("Gaisloch"))
            // Di asked to watch over her (not yet accepted), and Ed whom she watches over (he is
            // her dependent, not her responder): not found either.
            let di = try await person(world, client, "Di", phone: "+447700908107")
            let ed = try await person(world, client, "Ed", phone: "+447700908108")
            _ = try await world.contacts.addContact(ada, code: di.user.contactCode, roles: .responder)
            try await world.link(responder: ada, dependent: ed.caller)
            // A stranger, a requested responder, a dependent, and Ada asking about herself as if a contact: not found.
            for (token, who) in [(cy.token, "stranger"), (di.token, "requested"), (ed.token, "dependent"), (tokens.ada, "herself")] {
                let refused = try await client.call(Operations.listContactPlans, ["id": ada.user.id.description], token: token)
                #expect(refused.status == .notFound, "\(who)")
                #expect(refused.error?.code == .userNotFound)
            }
            // Late with the quiet plan: now Bob sees it too (its alert is open); ended, gone.
            world.clock.advance(by: 3 * 3600 + Double(ada.user.graceMinutes) * 60 + 1)
            _ = try await world.plans.done(ada, plan: plan.id, source: .app)
            try await world.settle(instance: "plans")
            let late = try await client.call(Operations.listContactPlans, ["id": ada.user.id.description], token: tokens.bob)
            #expect(try late.decode([PlanHeadline].self).map(\.title) == ["Date with Max"])
            #expect(try late.decode([PlanHeadline].self).first?.isLate == true)
            _ = try await world.plans.done(ada, plan: quiet.id, source: .app)
            let none = try await client.call(Operations.listContactPlans, ["id": ada.user.id.description], token: tokens.bob)
            #expect(try none.decode([PlanHeadline].self).isEmpty)
        }
    }

    @Test(arguments: TestBackend.all)
    func aLongPlanAsksForCheckInsAndAMissedOneIsSaidAsSuch(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let ada = try await person(world, client, "Ada", phone: "+447700909101")
            let bob = try await person(world, client, "Bob", phone: "+447700909102")
            try await world.link(responder: bob.caller, dependent: ada.caller)
            let day: TimeInterval = 86400
            // Refused outside 12–72 hours, nothing stored.
            let bad = try await client.call(
                Operations.startPlan, token: ada.token,
                json: PlanBody(title: "Trek", dueAt: world.clock.now.addingTimeInterval(5 * day), checkInEveryHours: 6))
            #expect(bad.status == .badRequest && bad.error?.field == "checkInEveryHours")
            #expect(try await world.plans.list(ada.caller).isEmpty)

            let started = try await client.call(
                Operations.startPlan, token: ada.token,
                json: PlanBody(title: "Trek", dueAt: world.clock.now.addingTimeInterval(5 * day), checkInEveryHours: 24))
            #expect(started.status == .created)
            let plan = try started.decode(Plan.self)
            #expect(plan.checkInEveryHours == 24 && plan.checkInBy == world.clock.now.addingTimeInterval(day))

            // Her own check-in moves the next one on; the rhythm's own steps are hers as always.
            world.clock.advance(by: 20 * 3600)
            _ = try await world.checkIns.checkIn(ada.caller, id: CheckInID(UUID()), clientAt: nil, source: .web)
            let moved = try #require(try await world.plans.list(ada.caller).first)
            #expect(moved.checkInBy == world.clock.now.addingTimeInterval(day))

            // Not a word for a day: the reminder, "you missed a check-in", then the alert, said as a
            // missed check-in on the plan, not as being late back.
            world.clock.advance(by: day - 15 * 60)
            try await world.settle(instance: "plans")
            #expect(try await world.notifications(ada.caller).contains { $0.type == .planReminder && $0.title == "Check in soon: Trek" })
            world.clock.advance(by: 15 * 60)
            try await world.settle(instance: "plans")
            #expect(
                try await world.notifications(ada.caller).contains { $0.type == .planLate && $0.title == "You missed a check-in on: Trek" })
            world.clock.advance(by: Double(ada.user.graceMinutes) * 60 + 1)
            try await world.settle(instance: "plans")
            let incident = try #require(
                try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.first { $0.planID == plan.id })
            let alert = try #require(try await world.notifications(bob.caller).first { $0.incidentID == incident.id })
            #expect(alert.title == "Ada Tester missed a check-in on: Trek")

            // Her check-in answers it: the alert ends, the plan runs on with the next check-in a day on.
            _ = try await world.checkIns.checkIn(ada.caller, id: CheckInID(UUID()), clientAt: nil, source: .app)
            #expect(try await world.incidents.incidentReport(bob.caller, id: incident.id).incident.resolution == .checkedIn)
            let running = try #require(try await world.plans.list(ada.caller).first)
            #expect(running.state == .active && running.checkInBy == world.clock.now.addingTimeInterval(day))

            // Within a day of her return only the due time is left; "I'm back" ends it.
            world.clock.advance(by: 3 * day)
            _ = try await world.checkIns.checkIn(ada.caller, id: CheckInID(UUID()), clientAt: nil, source: .app)
            #expect(try await world.plans.list(ada.caller).first?.checkInBy == nil)
            #expect(try await world.plans.done(ada.caller, plan: plan.id, source: .app).state == .done)
        }
    }

    @Test(arguments: TestBackend.all)
    func herPreviewShowsHerPlansStepsAmongHerRhythmsInTimeOrder(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _, _, plan, _) = try await scenario(world, client, phones: 92)
            let preview = try await world.drills.timelinePreview(ada)
            #expect(preview.map(\.at) == preview.map(\.at).sorted())
            let mine = preview.filter { $0.summary.hasPrefix("“Hiking the Rax trail”") }
            #expect(
                mine.map(\.at) == [
                    plan.dueAt.addingTimeInterval(-15 * 60), plan.dueAt,
                    plan.dueAt.addingTimeInterval(Double(ada.user.graceMinutes) * 60),
                ])
            #expect(mine.last?.summary.contains("Bob Tester") == true)
            #expect(mine.last?.responders.map(\.name) == ["Bob Tester"])
            // Her rhythm's own steps are still there.
            #expect(preview.contains { $0.kind == .lastCall && !$0.summary.hasPrefix("“") })
        }
    }

    /// Every step of a plan that fell due while no engine ran is taken in one pass, each counted
    /// as late, as the missed check-in's steps are (`EnginePass.late`, in the pass's log line).
    @Test(arguments: TestBackend.all)
    func planStepsTakenAfterAnOutageAreCountedLate(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (ada, _, _, _, _) = try await scenario(world, client, phones: 71)
            world.clock.advance(by: 7200 + Double(ada.user.graceMinutes) * 60 + 3 * 3600)
            let pass = try await EscalationEngine(core: world.core, instance: "after-outage").runPass()
            #expect(pass.incidentsOpened == 1)
            #expect(pass.planNotices >= 1)
            #expect(pass.late == pass.planNotices + pass.incidentsOpened)
            #expect(try await EscalationEngine(core: world.core, instance: "again").runPass().total == 0)
        }
    }
}
