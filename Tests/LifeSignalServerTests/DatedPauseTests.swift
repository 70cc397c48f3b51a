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

/// Days off with the test clock, on both databases: pauses planned ahead that hold and end by
/// themselves, what her responders are told and see, the limits, and the explicit answer about
/// an open alert.
struct DatedPauseTests {
    /// What reached anyone about `subject`'s rhythm: reminders, last calls and alerts.
    func alerts(_ world: TestWorld, about subject: Caller, to people: Caller...) async throws -> [Notification] {
        var all: [Notification] = []
        for person in people {
            all += try await world.notifications(person).filter {
                [.reminder, .nonResponsive, .incidentOpened].contains($0.type) && $0.subjectUserID == subject.user.id
            }
        }
        return all
    }

    @Test(arguments: TestBackend.all)
    func daysOffAheadHoldEveryDeadlineInsideThemAndEndByThemselves(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let ada = try await person(world, client, "Ada", phone: "+447700911001")
            let bob = try await person(world, client, "Bob", phone: "+447700911002")
            try await world.link(responder: bob.caller, dependent: ada.caller)
            _ = try await world.checkIns.checkIn(ada.caller, id: CheckInID(UUID()), clientAt: nil, source: .web)
            let start = world.clock.now

            // Away from 20 hours from now for two days: her deadline (24 hours) falls inside.
            let (from, until) = (start.addingTimeInterval(20 * 3600), start.addingTimeInterval(68 * 3600))
            let added = try await client.call(
                Operations.addPause, token: ada.token, json: NewPauseBody(from: from, until: until))
            #expect(added.status == .created)
            let pause = try added.decode(Pause.self)
            #expect(pause.from == from && pause.until == until && pause.setByName == "Ada Tester")
            let listed = try await client.call(Operations.listPauses, token: ada.token)
            #expect(try listed.decode([Pause].self).map(\.id) == [pause.id])
            // Her deadline moved past it: a whole day after she is back.
            let status = try await world.checkIns.status(ada.caller)
            #expect(status.deadline == until.addingTimeInterval(24 * 3600))
            #expect(status.state == .ok && status.nextPause?.id == pause.id)
            // Bob is told, and sees it coming on her status and her page.
            let told = try #require(try await world.notifications(bob.caller).first { $0.type == .pauseChanged })
            #expect(told.title == "Ada Tester planned days off")
            let seen = try await client.call(Operations.getContactStatus, ["id": ada.user.id.description], token: bob.token)
            #expect(try seen.decode(CheckInStatus.self).nextPause?.from == from)
            #expect(try await ResponderPagesTests.page(client, "/contacts/\(ada.user.id)", bob.token).contains(#"id="pause-note""#))

            // Through the pause: nothing reaches anyone; Bob sees who set it and until when.
            world.clock.advance(by: 30 * 3600)
            try await world.settle(instance: "pauses")
            let during = try await client.call(Operations.getContactStatus, ["id": ada.user.id.description], token: bob.token)
            let paused = try during.decode(CheckInStatus.self)
            #expect(paused.state == .paused && paused.pausedUntil == until && paused.pausedBy == "Ada Tester")
            #expect(try await ResponderPagesTests.page(client, "/contacts/\(ada.user.id)", bob.token).contains("Set by Ada Tester."))
            world.clock.advance(by: 38 * 3600)
            try await world.settle(instance: "pauses")
            let sent = try await alerts(world, about: ada.caller, to: ada.caller, bob.caller)
            #expect(sent.isEmpty, "\(sent.map { "\($0.type) \($0.createdAt) \($0.title)" })")
            #expect(try await world.checkIns.status(ada.caller).state == .ok)

            // It ended by itself; a day later her rhythm is back, once.
            world.clock.set(until.addingTimeInterval(24 * 3600 + Double(ada.user.graceMinutes) * 60 + 1))
            try await world.settle(instance: "pauses")
            try await world.settle(instance: "pauses")
            #expect(try await world.notifications(bob.caller).filter { $0.type == .incidentOpened }.count == 1)
            #expect(try await world.timeline.timeline(ada.caller).contains { $0.summary.hasPrefix("Pause planned from ") })
            #expect(try await world.timeline.verifyTimeline(ada.caller).valid)
        }
    }

    @Test(arguments: TestBackend.all)
    func aPausePlannedToBeginAfterADeadlineDoesNotExcuseIt(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let ada = try await person(world, client, "Ada", phone: "+447700911101")
            let bob = try await person(world, client, "Bob", phone: "+447700911102")
            try await world.link(responder: bob.caller, dependent: ada.caller)
            _ = try await world.checkIns.checkIn(ada.caller, id: CheckInID(UUID()), clientAt: nil, source: .web)
            let deadline = world.clock.now.addingTimeInterval(24 * 3600)
            _ = try await world.pauses.add(
                ada.caller, from: deadline.addingTimeInterval(3600), until: deadline.addingTimeInterval(5 * 86400),
                openIncident: nil)
            #expect(try await world.checkIns.status(ada.caller).deadline == deadline)
            world.clock.set(deadline.addingTimeInterval(Double(ada.user.graceMinutes) * 60 + 1))
            try await world.settle(instance: "pauses")
            #expect(try await world.notifications(bob.caller).contains { $0.type == .incidentOpened })
        }
    }

    @Test(arguments: TestBackend.all)
    func badPausesAreRefusedAndChangeNothing(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let ada = try await person(world, client, "Ada", phone: "+447700911201")
            let cy = try await person(world, client, "Cy", phone: "+447700911203")
            let now = world.clock.now
            let day: TimeInterval = 86400
            func add(_ from: TimeInterval?, _ until: TimeInterval) async throws -> APIResponse {
                try await client.call(
                    Operations.addPause, token: ada.token,
                    json: NewPauseBody(from: from.map { now.addingTimeInterval($0) }, until: now.addingTimeInterval(until)))
            }
            // Longer than 30 days, ending before it starts, starting in the past or beyond a year.
            #expect(try await add(day, 32 * day).error?.code == .invalidUntil)
            #expect(try await add(2 * day, day).error?.code == .invalidUntil)
            #expect(try await add(-day, day).error?.field == "from")
            #expect(try await add(400 * day, 401 * day).error?.field == "from")
            #expect(try await world.pauses.list(ada.caller).isEmpty)

            // Twenty a week apart; the 21st and an overlapping one are refused.
            for week in 0..<20 {
                #expect(try await add(Double(week) * 7 * day + day, Double(week) * 7 * day + 2 * day).status == .created)
            }
            let overlapping = try await add(day + 3600, 3 * day)
            #expect(overlapping.status == .conflict && overlapping.error?.code == .pauseOverlaps)
            let tooMany = try await add(200 * day, 201 * day)
            #expect(tooMany.status == .conflict && tooMany.error?.code == .tooManyPauses)
            let held = try await world.pauses.list(ada.caller)
            #expect(held.count == 20)

            // Calling one off: hers only. Cy cannot even learn that it exists.
            let first = try #require(held.first)
            let refused = try await client.call(Operations.removePause, ["id": first.id.description], token: cy.token)
            #expect(refused.status == .notFound && refused.error?.code == .pauseNotFound)
            #expect(try await world.pauses.list(ada.caller).count == 20)
            let removed = try await client.call(Operations.removePause, ["id": first.id.description], token: ada.token)
            #expect(removed.status == .ok)
            #expect(try await world.pauses.list(ada.caller).count == 19)
            let again = try await client.call(Operations.removePause, ["id": first.id.description], token: ada.token)
            #expect(again.error?.code == .pauseNotFound)
            #expect(try await world.timeline.timeline(ada.caller).contains { $0.summary.hasSuffix("called off") })
        }
    }

    @Test(arguments: TestBackend.all)
    func pausingDuringAMissedCheckInAsksAndKeepingItOpenLeavesItToHerResponders(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let ada = try await person(world, client, "Ada", phone: "+447700911301")
            let bob = try await person(world, client, "Bob", phone: "+447700911302")
            try await world.link(responder: bob.caller, dependent: ada.caller)
            world.clock.advance(by: 24 * 3600 + Double(ada.user.graceMinutes) * 60 + 1)
            try await world.settle(instance: "pauses")
            let incident = try #require(try await world.checkIns.status(ada.caller).openIncident)

            let until = world.clock.now.addingTimeInterval(2 * 86400)
            let asked = try await client.call(Operations.setPause, token: ada.token, json: PauseBody(until: until))
            #expect(asked.status == .conflict && asked.error?.code == .incidentOpen)
            #expect(try await world.pauses.list(ada.caller).isEmpty)
            // The same over the new operation, for a pause from now.
            let askedToo = try await client.call(Operations.addPause, token: ada.token, json: NewPauseBody(until: until))
            #expect(askedToo.error?.code == .incidentOpen)

            let kept = try await client.call(
                Operations.setPause, token: ada.token, json: PauseBody(until: until, openIncident: .keepOpen))
            #expect(kept.status == .ok)
            let status = try kept.decode(CheckInStatus.self)
            #expect(status.state == .paused && status.openIncident?.id == incident.id)
            #expect(try await world.incidents.incidentReport(bob.caller, id: incident.id).incident.resolvedAt == nil)
            #expect(!(try await world.notifications(bob.caller)).contains { $0.type == .incidentResolved })
        }
    }
}
