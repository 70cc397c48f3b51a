import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct PreviewAndDrillFeatureTests {
    @Test func thePreviewListsTheStepsInTimeOrderAndSaysWhenNobodyWouldBeAlerted() async {
        let reminder = PreviewStep(at: Fixtures.now.addingTimeInterval(3600), kind: .reminder, summary: "Reminder to you")
        let alert = PreviewStep(at: Fixtures.now.addingTimeInterval(7200), kind: .incident, summary: "Alert nobody")
        let store = TestStore(initialState: PreviewFeature.State()) {
            PreviewFeature()
        } withDependencies: {
            $0.settingsClient.preview = { [alert, reminder] }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(\.previewResponse.success) {
            $0.isLoading = false
            $0.steps = [reminder, alert]
        }
        #expect(store.state.reachesNobody)
    }

    nonisolated static let drillID = DrillID(UUID(uuidString: "00000000-0000-7000-8000-00000000d001")!)

    nonisolated static func report(_ bob: Delivery.Status, _ cy: Delivery.Status) -> DrillReport {
        func recipient(_ n: Int, _ name: String, _ channel: ChannelKind, _ status: Delivery.Status) -> DrillReport.Recipient {
            let notification = NotificationID(UUID(300 + n))
            let delivery = Delivery(
                id: DeliveryID(UUID(400 + n)), notificationID: notification, recipientID: Fixtures.id(n), channel: channel,
                address: "x", status: status, reason: status == .failed ? "The mail server refused it." : nil,
                createdAt: Fixtures.now, updatedAt: Fixtures.now)
            return DrillReport.Recipient(
                userID: Fixtures.id(n), name: name, notificationID: notification, deliveries: [DeliveryProof(delivery)])
        }
        return DrillReport(
            id: drillID, createdAt: Fixtures.now, recipients: [recipient(2, "Bob Test", .sms, bob), recipient(3, "Cy Test", .email, cy)])
    }

    @Test func aDrillIsWatchedUntilEveryOutcomeIsIn() async {
        let clock = TestClock()
        let reads = LockIsolated(0)
        let store = TestStore(initialState: DrillFeature.State()) {
            DrillFeature()
        } withDependencies: {
            $0.continuousClock = clock
            $0.settingsClient.runDrill = { Self.report(.queued, .queued) }
            $0.settingsClient.drill = { id in
                #expect(id == Self.drillID)
                reads.withValue { $0 += 1 }
                return reads.value == 1 ? Self.report(.delivered, .queued) : Self.report(.delivered, .failed)
            }
        }
        await store.send(.runButtonTapped) { $0.isRunning = true }
        await store.receive(\.runResponse.success) {
            $0.isRunning = false
            $0.report = Self.report(.queued, .queued)
            $0.isWatching = true
        }
        await clock.advance(by: DrillFeature.pollInterval)
        await store.receive(\.drillUpdated.success) { $0.report = Self.report(.delivered, .queued) }
        await clock.advance(by: DrillFeature.pollInterval)
        await store.receive(\.drillUpdated.success) {
            $0.report = Self.report(.delivered, .failed)
            $0.isWatching = false
        }
        #expect(store.state.unreachable == ["Cy Test"])
        // Settled: no more reads.
        await clock.advance(by: .seconds(30))
        #expect(reads.value == 2)
    }

    @Test func watchingStopsAfterAMinuteWhateverIsStillOpen() async {
        let clock = TestClock()
        let store = TestStore(initialState: DrillFeature.State()) {
            DrillFeature()
        } withDependencies: {
            $0.continuousClock = clock
            $0.settingsClient.runDrill = { Self.report(.sent, .sent) }
            $0.settingsClient.drill = { _ in Self.report(.sent, .sent) }
        }
        store.exhaustivity = .off
        await store.send(.runButtonTapped)
        await store.receive(\.runResponse.success)
        await clock.advance(by: DrillFeature.watchFor)
        await store.receive(\.watchEnded) { $0.isWatching = false }
        #expect(store.state.report == Self.report(.sent, .sent))
    }
}
