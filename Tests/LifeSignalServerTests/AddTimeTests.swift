import Foundation
import HTTPTypes
import HummingbirdTesting
import LifeSignalAPI
@testable import LifeSignalCore
import LifeSignalModels
import LifeSignalTestSupport
import NIOCore
import Testing

/// "I'm OK, give me 2 more hours", on both databases with the test clock: one deadline moved
/// later before it comes, once, told to nobody; by API, text and web.
struct AddTimeTests {
    @Test(arguments: TestBackend.all)
    func twoMoreHoursMoveTheDeadlineOnceAndTellNobody(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let (adaToken, _) = try await client.signUp(world, first: "Ada", phone: "+447700909101")
            let (bobToken, _) = try await client.signUp(world, first: "Bob", phone: "+447700909102")
            let ada = try await world.accounts.authenticate(token: adaToken).caller()
            let bob = try await world.accounts.authenticate(token: bobToken).caller()
            try await world.link(responder: bob, dependent: ada)
            _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            let before = try await world.checkIns.status(ada).deadline

            // Twenty hours in: two more hours, by the API.
            world.clock.advance(by: 20 * 3600)
            let added = try await client.call(Operations.addTime, token: adaToken, json: AddTimeBody(minutes: 120))
            #expect(added.status == .ok)
            #expect(try added.decode(CheckInStatus.self).deadline == before.addingTimeInterval(7200))
            // Once per deadline; never more than one period; a check-in token may not.
            let again = try await client.call(Operations.addTime, token: adaToken, json: AddTimeBody(minutes: 60))
            #expect(again.status == .badRequest)
            #expect(again.error?.field == "minutes")
            // Bob's status of her says the new time; nobody was told.
            #expect(try await world.checkIns.status(bob, of: ada.user.id).deadline == before.addingTimeInterval(7200))
            #expect(!(try await world.notifications(bob)).contains { $0.createdAt >= world.clock.now.addingTimeInterval(-1) })

            // Her old deadline and its grace pass: nothing. Her reminder comes before the new one.
            world.clock.advance(by: 4 * 3600 + 11 * 60)
            try await world.settle(instance: "add-time")
            #expect(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.isEmpty)
            #expect(try await world.checkIns.status(ada).state != .nonResponsive)
            #expect(!(try await world.notifications(ada)).contains { $0.type == .reminder })
            world.clock.advance(by: 80 * 60)
            try await world.settle(instance: "add-time")
            #expect(try await world.notifications(ada).contains { $0.type == .reminder })
            // Past the new deadline and its grace: the alert, as always.
            world.clock.advance(by: 40 * 60)
            try await world.settle(instance: "add-time")
            #expect(try await world.store.read { try await $0.incidents.openIncidents(of: ada.user.id) }.count == 1)
            // Too late to add time now: check in instead.
            let late = try await client.call(Operations.addTime, token: adaToken, json: AddTimeBody(minutes: 60))
            #expect(late.status == .badRequest)
            let timeline = try await world.timeline.timeline(ada)
            #expect(timeline.contains { $0.kind == "time_added" })
            #expect(try await world.timeline.verifyTimeline(ada).valid)
        }
    }

    @Test(arguments: TestBackend.all)
    func laterByTextWithNoPlanAddsTimeAndTheNextCheckInLeavesItBehind(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, client in
            let ada = try await world.signUp("Ada", phone: "+447700909201")
            func text(_ body: String) async throws -> String {
                try await world.replies.receiveText(from: ada.user.phone, body: body, messageID: "SM\(UUID())") ?? ""
            }
            let first = try await world.checkIns.status(ada).deadline
            #expect(try await text("LATER 25H").hasPrefix("Add between 1 minute and 24 hours"))
            #expect(try await text("LATER 2H").hasPrefix("OK: your next deadline is now"))
            #expect(try await world.checkIns.status(ada).deadline == first.addingTimeInterval(7200))
            #expect(try await text("later 1h") == "You already added time to this deadline.")
            // Her next check-in gives her rhythm's next deadline as usual.
            world.clock.advance(by: 3600)
            _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
            #expect(try await world.checkIns.status(ada).deadline == world.clock.now.addingTimeInterval(24 * 3600))
            #expect(try await text("LATER 1H").hasPrefix("OK: your next deadline is now"))
        }
    }

    @Test(arguments: TestBackend.all)
    func onTwoDailyTimesAddedTimeNeverJumpsOverTheNextOne(_ backend: TestBackend) async throws {
        try await TestWorld.test(on: backend) { world, _ in
            var ada = try await world.signUp("Ada", phone: "+447700909401")
            let daily = DailySchedule(times: [.init(hour: 9, minute: 30), .init(hour: 21, minute: 30)], timeZone: "UTC")
            ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: .daily(daily)))
            let deadline = try await world.checkIns.status(ada).deadline
            // At most the 12 hours to the evening's deadline.
            await #expect(throws: ServiceError.self) { try await world.checkIns.addTime(ada, minutes: 12 * 60 + 1) }
            let status = try await world.checkIns.addTime(ada, minutes: 12 * 60)
            #expect(status.deadline == deadline.addingTimeInterval(12 * 3600))
        }
    }

    @Test func onTheWebItIsOnePressBeforeTheDeadline() async throws {
        let world = try await TestWorld()
        try await world.test { client in
            let (ada, _) = try await client.signUp(world, first: "Ada", phone: "+447700909301")
            let home = try await ResponderPagesTests.page(client, "/", ada)
            #expect(home.contains(#"id="more-time""#) && home.contains(#"action="/later""#))
            let csrf = try await ResponderPagesTests.csrf(client, ada)
            let status = try await client.execute(
                uri: "/later", method: .post,
                headers: [.cookie: "ls_session=\(ada)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(csrf)&minutes=60")
            ) { $0.status }
            #expect(status == .seeOther)
            let after = try await ResponderPagesTests.page(client, "/", ada)
            #expect(after.contains(#"id="time-added""#))
        }
    }
}
