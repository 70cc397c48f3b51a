import Foundation
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalTestSupport
import Testing

@Suite("Timeline preview and drills")
struct DrillAndPreviewTests {
    /// Ada (8-hour rhythm, 30-minute reminder, 10-minute grace) checks in at 08:00; Bob has
    /// email then SMS, Cy registered nothing (the server's default, log).
    func scenario() async throws -> (TestWorld, Caller, Caller, Caller) {
        let world = try await TestWorld()
        var ada = try await world.signUp("Ada", phone: "+447700900100")
        let bob = try await world.signUp("Bob", phone: "+447700900101")
        let cy = try await world.signUp("Cy", phone: "+447700900102")
        try await world.addProvedChannel(bob, ChannelRegistration(kind: .email, address: "bob@example.com"))
        try await world.addProvedChannel(bob, ChannelRegistration(kind: .sms, address: "+447700900101"))
        ada.user = try await world.profiles.updateProfile(ada, ProfileChanges(schedule: .interval(seconds: 8 * 3600)))
        try await world.link(responder: bob, dependent: ada)
        world.clock.advance(by: 1)
        try await world.link(responder: cy, dependent: ada)
        world.clock.set(TestWorld.start)
        _ = try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app)
        return (world, try await world.refresh(ada), bob, cy)
    }

    @Test func previewIsTheExactPlanForTheNextDeadline() async throws {
        let (world, ada, bob, cy) = try await scenario()
        let t = TestWorld.start
        let steps = try await world.drills.timelinePreview(ada)
        let people = [
            // An alert always ends with the default channel (here `log`) to the verified number.
            PreviewStep.Responder(userID: bob.user.id, name: "Bob Tester", channels: [.email, .sms, .log]),
            PreviewStep.Responder(userID: cy.user.id, name: "Cy Tester", channels: [.log]),
        ]
        var expected = [
            PreviewStep(
                at: t.addingTimeInterval(8 * 3600 - 1800), kind: .reminder,
                summary: "Reminder to you: check in within 30 minutes"),
            PreviewStep(
                at: t.addingTimeInterval(8 * 3600), kind: .lastCall,
                summary: "Last call to you: responders are alerted in 10 minutes"),
            PreviewStep(
                at: t.addingTimeInterval(8 * 3600 + 600), kind: .incident,
                summary: "Alert Bob Tester by email, Cy Tester by log", responders: people),
        ]
        for round in 2...8 {
            expected.append(
                PreviewStep(
                    at: t.addingTimeInterval(8 * 3600 + 600 + Double(round - 1) * 900), kind: .repeatNotification,
                    summary: "Reminder \(round) to Bob Tester by email, Cy Tester by log, unless someone says “I'm on it”",
                    responders: people))
        }
        #expect(steps == expected)

        // Once the reminder went out, the preview starts at the last call.
        world.clock.set(t.addingTimeInterval(8 * 3600 - 1700))
        _ = try await EscalationEngine(core: world.core, instance: "test").runPass()
        let later = try await world.drills.timelinePreview(ada)
        #expect(later.first?.kind == .lastCall)
        #expect(later.count == expected.count - 1)
    }

    /// An e-mail provider that refuses everything.
    struct RefusingEmail: ChannelAdapter {
        let kind: ChannelKind = .email
        func send(_ message: OutgoingMessage) async throws(DeliveryFailure) -> ChannelReceipt {
            throw .permanent("mailbox unavailable")
        }
    }

    @Test func aFailingChannelFallsBackToTheNextAndEveryAttemptIsOnTheTimeline() async throws {
        let (world, ada, bob, cy) = try await scenario()
        let worker = DeliveryService.worker(
            for: world.core, registry: ChannelRegistry([RefusingEmail(), LogChannel(logger: .init(label: "test"))]),
            owner: "test")
        world.clock.advance(by: 2)
        while try await worker.runOnce() > 0 {}  // what linking them sent
        let before = try await world.timeline.timeline(ada).count
        world.clock.set(TestWorld.start.addingTimeInterval(8 * 3600 + 10 * 60 + 1))
        #expect(try await EscalationEngine(core: world.core, instance: "test").runPass().incidentsOpened == 1)
        let incident = try #require(try await world.notifications(bob).first { $0.type == .incidentOpened }?.incidentID)

        // Round 1: Bob's e-mail is refused, Cy's default channel works, Ada's own last call and
        // her "Bob and Cy have been alerted" go out; the refusal queues Bob's next channel.
        // Round 2: SMS has no provider here. Round 3: an alert always ends with the default
        // channel to the verified number, which works. Then nothing is left.
        #expect(try await worker.runOnce() == 4)
        #expect(try await worker.runOnce() == 1)
        #expect(try await worker.runOnce() == 1)
        #expect(try await worker.runOnce() == 0)

        let report = try await world.incidents.incidentReport(bob, id: incident)
        let bobs = try #require(report.recipients.first { $0.userID == bob.user.id }?.deliveries)
        #expect(bobs.map(\.channel) == [.email, .sms, .log])
        #expect(bobs.map(\.status) == [.failed, .failed, .delivered])
        #expect(bobs.map(\.reason) == ["mailbox unavailable", OutboxWorker.channelNotConfiguredReason, nil])
        #expect(bobs.map(\.attempts) == [1, 1, 1])
        let cys = try #require(report.recipients.first { $0.userID == cy.user.id }?.deliveries)
        #expect(cys.map(\.channel) == [.log])
        #expect(cys.map(\.status) == [.delivered])

        let attempts = try await world.timeline.timeline(ada).dropFirst(before).filter { $0.kind == "delivery" }.map(\.summary)
        #expect(attempts.count == 6)
        #expect(attempts.contains("Bob Tester: email failed (mailbox unavailable)"))
        #expect(attempts.contains("Bob Tester: sms failed (\(OutboxWorker.channelNotConfiguredReason))"))
        #expect(attempts.contains("Cy Tester: log delivered"))
        #expect(try await world.timeline.verifyTimeline(ada).valid)
    }

    @Test func drillReachesEveryResponderOnEveryChannelAndReportsOutcomes() async throws {
        let (world, ada, bob, cy) = try await scenario()
        let report = try await world.drills.runDrill(ada)
        #expect(report.recipients.map(\.userID) == [bob.user.id, cy.user.id])
        let bobDeliveries = try #require(report.recipients.first?.deliveries)
        #expect(Set(bobDeliveries.map(\.channel)) == [.email, .sms])
        #expect(report.recipients.last?.deliveries.map(\.channel) == [.log])
        #expect(report.recipients.flatMap(\.deliveries).allSatisfy { $0.status == .queued })
        // One drill notification per responder.
        #expect(try await world.notifications(bob).filter { $0.type == .drill }.count == 1)
        #expect(try await world.notifications(cy).filter { $0.type == .drill }.map(\.id) == [report.recipients[1].notificationID])

        // The log channel sends; the report read later shows the outcome.
        let worker = DeliveryService.worker(
            for: world.core, registry: ChannelRegistry([LogChannel(logger: .init(label: "test"))]), owner: "test")
        _ = try await worker.runOnce()
        let again = try await world.drills.drill(ada, id: report.id)
        #expect(again.id == report.id)
        #expect(again.recipients.last?.deliveries.first?.status == .delivered)
        // Channels without an adapter here fail and say why.
        #expect(again.recipients.first?.deliveries.allSatisfy { $0.status == .failed && $0.reason != nil } == true)

        // Someone else's drill id is not found; no responders is a clear conflict.
        await #expect(throws: ServiceError.self) { try await world.drills.drill(bob, id: report.id) }
        await #expect(throws: ServiceError.self) { try await world.drills.runDrill(cy) }
    }
}
