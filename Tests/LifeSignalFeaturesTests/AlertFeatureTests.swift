import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct AlertFeatureTests {
    let clock = TestClock()
    let haptics = LockIsolated<[HapticFeedback]>([])

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    func makeStore(
        _ state: AlertFeature.State = AlertFeature.State(),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStoreOf<AlertFeature> {
        TestStore(initialState: state) {
            AlertFeature()
        } withDependencies: { [clock, haptics] in
            $0.continuousClock = clock
            $0.hapticsClient.play = { feedback in haptics.withValue { $0.append(feedback) } }
            dependencies(&$0)
        }
    }

    @Test func fiveQuickTapsRaiseTheAlert() async {
        let store = makeStore {
            $0.alertClient.raise = { .preview }
        }
        for tap in 1...4 {
            await store.send(.alertButtonTapped) {
                $0.tapCount = tap
            }
            #expect(store.state.tapProgress == Double(tap) / 5)
            await clock.advance(by: .seconds(1))
        }
        await fifthTapRaises(store)
        await store.receive(.delegate(.alertRaised(.preview)))
        // The tap window of the earlier taps was cancelled: nothing more arrives.
        await clock.run()
        #expect(haptics.value == [.light, .light, .light, .light, .heavy])
    }

    @Test func slowTapsStartOver() async {
        let store = makeStore()
        await store.send(.alertButtonTapped) { $0.tapCount = 1 }
        await clock.advance(by: .seconds(1))
        await store.send(.alertButtonTapped) { $0.tapCount = 2 }
        await clock.advance(by: .milliseconds(1500))
        await store.receive(.tapWindowExpired) { $0.tapCount = 0 }
    }

    @Test func raiseFailureIsShown() async {
        let store = makeStore(AlertFeature.State()) {
            $0.alertClient.raise = { throw Fixtures.serverError }
        }
        for tap in 1...4 {
            await store.send(.alertButtonTapped) { $0.tapCount = tap }
        }
        await store.send(.alertButtonTapped) {
            $0.tapCount = 5
            $0.isRaising = true
        }
        await store.receive(.raiseResponse(.failure(Fixtures.serverFailure))) {
            $0.isRaising = false
            $0.tapCount = 0
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func holdingThreeSecondsClearsTheAlert() async {
        let cleared = Fixtures.status(lastCheckIn: Fixtures.now, deadline: Fixtures.now.addingTimeInterval(86400))
        let store = makeStore(AlertFeature.State(isAlertActive: true)) {
            $0.alertClient.clear = { cleared }
        }
        await store.send(.clearButtonPressed) {
            $0.isHolding = true
        }
        for tick in 1...11 {
            await clock.advance(by: .milliseconds(250))
            await store.receive(.holdTicked) { $0.holdTicks = tick }
        }
        #expect(store.state.holdProgress == 11.0 / 12.0)
        await clock.advance(by: .milliseconds(250))
        await store.receive(.holdTicked) {
            $0.holdTicks = 12
            $0.isHolding = false
            $0.isClearing = true
        }
        await store.receive(.clearResponse(.success(cleared))) {
            $0.isClearing = false
            $0.holdTicks = 0
            $0.isAlertActive = false
        }
        await store.receive(.delegate(.alertCleared(cleared)))
        #expect(haptics.value == [.success])
    }

    @Test func releasingEarlyCancelsTheHold() async {
        let store = makeStore(AlertFeature.State(isAlertActive: true))
        await store.send(.clearButtonPressed) {
            $0.isHolding = true
        }
        for tick in 1...4 {
            await clock.advance(by: .milliseconds(250))
            await store.receive(.holdTicked) { $0.holdTicks = tick }
        }
        await store.send(.clearButtonReleased) {
            $0.isHolding = false
            $0.holdTicks = 0
        }
        // Exhaustive: a tick or a clear request after the release would fail the test.
        await clock.advance(by: .seconds(5))
        #expect(store.state.isAlertActive)
    }

    @Test func clearFailureKeepsTheAlert() async {
        let store = makeStore(AlertFeature.State(isAlertActive: true)) {
            $0.alertClient.clear = { throw Fixtures.serverError }
        }
        await store.send(.clearButtonPressed) { $0.isHolding = true }
        for tick in 1...11 {
            await clock.advance(by: .milliseconds(250))
            await store.receive(.holdTicked) { $0.holdTicks = tick }
        }
        await clock.advance(by: .milliseconds(250))
        await store.receive(.holdTicked) {
            $0.holdTicks = 12
            $0.isHolding = false
            $0.isClearing = true
        }
        await store.receive(.clearResponse(.failure(Fixtures.serverFailure))) {
            $0.isClearing = false
            $0.holdTicks = 0
            $0.destination = .alert(.failure(Fixtures.serverFailure))
        }
        #expect(store.state.isAlertActive)
    }

    @Test func tapsDoNothingWhileTheAlertIsActive() async {
        let store = makeStore(AlertFeature.State(isAlertActive: true))
        await store.send(.alertButtonTapped)
        #expect(haptics.value.isEmpty)
    }
}

/// Her location with her SOS: read only after the alert went out, sent once; a position that
/// cannot be read is sent as such and she sees it.
@MainActor
struct AlertLocationTests {
    let clock = TestClock()

    init() {
        uncheckedUseMainSerialExecutor = true
    }

    nonisolated static let view = LocationView(
        userID: UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000001")!), sharing: true,
        couldNotRead: LocationFailure(at: Date(timeIntervalSince1970: 1_795_685_400), source: .sos))

    @Test func theAlertGoesFirstThenAPositionThatCouldNotBeReadIsSent() async {
        let calls = LockIsolated<[String]>([])
        let store = TestStore(initialState: AlertFeature.State(sharesLocation: true)) {
            AlertFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
            $0.hapticsClient.play = { _ in }
            $0.alertClient.raise = {
                calls.withValue { $0.append("raise") }
                return .preview
            }
            $0.locationClient.currentPosition = {
                calls.withValue { $0.append("position") }
                throw CancellationError()
            }
            $0.locationClient.record = { reading, source in
                calls.withValue { $0.append("record \(reading == nil ? "failed" : "fix") \(source.rawValue)") }
                return Self.view
            }
        }
        await raiseWithFiveTaps(store)
        await store.receive(.delegate(.alertRaised(.preview)))
        await store.receive(.locationResponse(.success(Self.view))) {
            $0.location = Self.view
        }
        #expect(calls.value == ["raise", "position", "record failed sos"])
        #expect(store.state.location?.couldNotRead != nil)
    }

    @Test func withSharingOffNothingIsRead() async {
        let store = TestStore(initialState: AlertFeature.State()) {
            AlertFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
            $0.hapticsClient.play = { _ in }
            $0.alertClient.raise = { .preview }
        }
        await raiseWithFiveTaps(store)
        // The location client's test value fails if called: it is not.
        await store.receive(.delegate(.alertRaised(.preview)))
    }
}

/// Five quick taps, and the server opens the alert (`AlertClient.raise` answers `.preview`).
@MainActor
private func raiseWithFiveTaps(_ store: TestStoreOf<AlertFeature>) async {
    for tap in 1...4 { await store.send(.alertButtonTapped) { $0.tapCount = tap } }
    await fifthTapRaises(store)
}

/// The fifth tap inside the window raises the alert, and the server opens it (`.preview`).
@MainActor
private func fifthTapRaises(_ store: TestStoreOf<AlertFeature>) async {
    await store.send(.alertButtonTapped) {
        $0.tapCount = 5
        $0.isRaising = true
    }
    await store.receive(.raiseResponse(.success(.preview))) {
        $0.isRaising = false
        $0.tapCount = 0
        $0.isAlertActive = true
    }
}
