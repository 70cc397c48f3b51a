import Foundation
import LifeSignalAPI
import LifeSignalClient
import LifeSignalClientLive
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("Contacts, pings, alerts and notifications through the live clients")
struct ContactsPingsAlertsTests {
    @Test func twoPeopleLinkPingAnswerAlertAcknowledgeAndClear() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, adaUser) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900401")
            let (bob, bobUser) = try await Device.signUp(world, server: server, first: "Bob", phone: "+447700900402")

            // Ada adds Bob, by his link, as her responder.
            let bobCode = try await bob.contacts.contactCode()
            #expect(bobCode.link.hasSuffix(bobCode.code))
            let preview = try await ada.contacts.lookUp(codeOrLink: bobCode.link)
            #expect(preview.userID == bobUser.id)
            #expect(preview.firstName == "Bob")
            let asked = try await ada.contacts.add(codeOrLink: bobCode.link, roles: .responder)
            #expect(asked.toUserID == bobUser.id)
            #expect(asked.roles == .responder)
            #expect(try await bob.contacts.list(sort: .urgency).dependents.isEmpty)
            #expect(try await bob.contacts.requests().incoming.map(\.id) == [asked.id])
            let added = try await bob.contacts.acceptRequest(asked.id, asked.roles)
            #expect(added.userID == adaUser.id)
            #expect(added.roles == .dependent)
            let duplicate = try await #require(throws: APIError.self) {
                try await ada.contacts.add(codeOrLink: bobCode.code, roles: .responder)
            }
            #expect(duplicate.status == 409)

            let bobsLists = try await bob.contacts.list(sort: .urgency)
            #expect(bobsLists.dependents.map(\.userID) == [adaUser.id])
            #expect(bobsLists.responders.isEmpty)
            #expect(try await bob.contacts.status(id: adaUser.id).state == .ok)
            #expect(try await bob.contacts.contact(id: adaUser.id).roles == .dependent)

            // Bob pings; Ada answers all, which counts as her check-in.
            let ping = try await bob.pings.send(dependentID: adaUser.id)
            #expect(ping.toUserID == adaUser.id)
            let adaSees = try await ada.contacts.list(sort: .name)
            #expect(adaSees.responders.first?.incomingPing?.id == ping.id)
            let answer = try await ada.pings.answerAll(checkInID: CheckInID(UUID()))
            #expect(answer.checkIn.source == .pingAnswer)
            let tooLate = try await #require(throws: APIError.self) { try await bob.pings.clear(id: ping.id) }
            #expect(tooLate.status == 409)

            // SOS: Bob sees it, acknowledges, Ada clears it.
            let incident = try await ada.alerts.raise()
            #expect(incident.kind == .manualAlert)
            #expect(try await bob.contacts.status(id: adaUser.id).state == .alert)
            let report = try await bob.alerts.incidentReport(id: incident.id)
            #expect(report.incident.id == incident.id)
            #expect(report.user.userID == adaUser.id)
            let acknowledged = try await bob.alerts.acknowledge(id: incident.id)
            #expect(acknowledged.acknowledgedBy == bobUser.id)
            let cleared = try await ada.alerts.clear()
            #expect(cleared.state == .ok)
            #expect(cleared.openIncident == nil)

            // Bob's history has the alert; reading it empties the unread list.
            let alerts = try await bob.notifications.list(query: NotificationQuery(category: .alerts))
            #expect(alerts.items.contains { $0.type == .manualAlert })
            #expect(alerts.items.allSatisfy { $0.category == .alerts })
            let first = try #require(alerts.items.first)
            _ = try await bob.notifications.deliveries(id: first.id)
            try await bob.notifications.markRead(id: first.id)
            let marked = try await bob.notifications.markAllRead()
            #expect(marked >= 0)
            #expect(try await bob.notifications.list(query: NotificationQuery(unreadOnly: true)).items.isEmpty)
            try await bob.notifications.delete(id: first.id)
            #expect(try await bob.notifications.list(query: NotificationQuery()).items.contains { $0.id == first.id } == false)

            // Asking for a second role is a request Bob accepts; then the link goes.
            let both = try await ada.contacts.updateRoles(id: bobUser.id, roles: [.responder, .dependent])
            #expect(both.roles == .responder)
            let widen = try #require(both.pendingRequest)
            #expect(try await bob.contacts.acceptRequest(widen.id, widen.roles).roles == [.responder, .dependent])
            #expect(try await ada.contacts.contact(id: bobUser.id).roles == [.responder, .dependent])
            try await ada.contacts.remove(id: bobUser.id)
            #expect(try await ada.contacts.list(sort: .name) == ContactLists(responders: [], dependents: []))
        }
    }

    @Test func aResponderChecksInOnBehalf() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, adaUser) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900403")
            let (bob, bobUser) = try await Device.signUp(world, server: server, first: "Bob", phone: "+447700900404")
            let asked = try await ada.contacts.add(codeOrLink: try await bob.contacts.contactCode().code, roles: .responder)
            _ = try await bob.contacts.acceptRequest(asked.id, asked.roles)
            // Not while Ada is fine: that would push her deadline out behind her back.
            let early = try await #require(throws: APIError.self) {
                try await bob.alerts.checkInOnBehalf(userID: adaUser.id, checkInID: CheckInID(UUID()))
            }
            #expect(early.status == 403)
            // Nor while her SOS is on: that is hers to clear, and "all clear" would be untrue.
            _ = try await ada.alerts.raise()
            let duringSOS = try await #require(throws: APIError.self) {
                try await bob.alerts.checkInOnBehalf(userID: adaUser.id, checkInID: CheckInID(UUID()))
            }
            #expect(duringSOS.status == 403)
            // Once she has missed a check-in, he may.
            _ = try await ada.alerts.clear()
            world.clock.advance(by: 2 * 86_400)
            let result = try await bob.alerts.checkInOnBehalf(userID: adaUser.id, checkInID: CheckInID(UUID()))
            #expect(result.checkIn.userID == adaUser.id)
            #expect(result.checkIn.recordedBy == bobUser.id)
        }
    }

    @Test func channelsAndTimeline() async throws {
        let world = try await TestWorld()
        try await world.serve { server in
            let (ada, _) = try await Device.signUp(world, server: server, first: "Ada", phone: "+447700900405")
            let channel = try await ada.settings.addChannel(registration: ChannelRegistration(kind: .email, address: "ada@example.com"))
            #expect(try await ada.settings.channels().map(\.id).contains(channel.id))
            try await ada.settings.removeChannel(id: channel.id)
            #expect(try await ada.settings.channels().map(\.id).contains(channel.id) == false)
            _ = try await ada.checkIns().checkIn(id: CheckInID(UUID()), clientAt: world.clock.now)
            let timeline = try await ada.settings.timeline(after: 0)
            #expect(timeline.contains { $0.kind == "check_in" })
            let verification = try await ada.settings.verifyTimeline()
            #expect(verification.valid)
            #expect(verification.entries == timeline.count)

            // Pages: each after the last sequence seen, until an empty one.
            let first = try await ada.settings.timelinePage(after: 0, limit: 2)
            #expect(first.map(\.sequence) == [1, 2])
            let rest = try await ada.settings.timelinePage(after: 2, limit: 10_000)
            #expect(first + rest == timeline)
            #expect(try await ada.settings.timelinePage(after: timeline.count, limit: 2).isEmpty)

            #expect(try await ada.settings.preview().contains { $0.kind == .incident })
            // A drill needs someone to tell.
            let noOne = try await #require(throws: APIError.self) { try await ada.settings.runDrill() }
            #expect(noOne.code == .noResponders)
        }
    }
}
