import ComposableCore
import ComposableCoreTesting
import Testing

/// The test store is only useful if it fails when it should: each test here makes a mistake
/// on purpose and checks that exactly that mistake is reported.
@MainActor
struct TestStoreFailureTests: CounterSuite {
    let clock = TestClock()

    init() { uncheckedUseMainSerialExecutor = true }

    @Test func wrongStateExpectationIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.incrementButtonTapped) { $0.count = 2 }
        } matching: { issue in
            issue.description.contains("A state change does not match expectation")
                && issue.description.contains("count: 2")
        }
    }

    @Test func unassertedStateChangeIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.incrementButtonTapped)
        } matching: {
            $0.description.contains("A state change does not match expectation")
        }
    }

    @Test func expectationThatChangesNothingIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.cancelDelayedTapped) { $0.count = 0 }
        } matching: {
            $0.description.contains("Expected state to change")
        }
    }

    @Test func unreceivedActionIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.sendTwiceTapped)
            await store.receive(.logged("first")) { $0.log = ["first"] }
        } matching: {
            $0.description.contains("received 1 unexpected action")
        }
    }

    @Test func sendingWithPendingReceivedActionsIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.sendTwiceTapped)
            await store.send(.incrementButtonTapped) { $0.count = 1 }
        } matching: {
            $0.description.contains("Must handle 2 received actions")
        }
    }

    @Test func wrongReceivedActionIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.sendTwiceTapped)
            await store.receive(.logged("second"))
            await store.skipReceivedActions()
        } matching: {
            $0.description.contains("Received unexpected action")
        }
    }

    @Test func receivingWhenNothingArrivesIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.incrementButtonTapped) { $0.count = 1 }
            await store.receive(\.logged)
        } matching: {
            $0.description.contains("but received none")
        }
    }

    @Test func receiveTimesOutWhenTheClockIsNotAdvanced() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.delayedIncrementTapped)
            await store.receive(\.incrementButtonTapped, timeout: .milliseconds(50)) { $0.count = 1 }
            await store.skipInFlightEffects()
        } matching: {
            $0.description.contains("received none after")
        }
    }

    @Test func effectStillRunningAtTheEndIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.delayedIncrementTapped)
        } matching: {
            $0.description.contains("still running")
        }
    }

    @Test func finishReportsEffectsThatDoNotEnd() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.startTimerTapped)
            await store.finish(timeout: .milliseconds(50))
            await store.skipInFlightEffects()
        } matching: {
            $0.description.contains("still effects in flight")
        }
    }

    @Test func finishWaitsForEffectsThenTheEndChecksPass() async {
        let store = self.makeStore()
        await store.send(.delayedIncrementTapped)
        await self.clock.run()
        await store.finish()
        await store.receive(\.incrementButtonTapped) { $0.count = 1 }
    }

    @Test func unhandledErrorInRunIsReported() async {
        struct Boom: Error {}
        await withKnownIssue {
            let store = Store(initialState: 0) {
                Reduce<Int, Bool> { _, _ in .run { _ in throw Boom() } }
            }
            await store.send(true).finish()
        } matching: {
            $0.description.contains("threw an unhandled error")
        }
    }

    @Test func nonExhaustiveModeChecksOnlyWhatIsAsserted() async {
        let store = self.makeStore()
        store.exhaustivity = .off
        await store.send(.sendTwiceTapped)
        await store.send(.incrementButtonTapped) { $0.count = 1 }
        await store.send(.delayedIncrementTapped)
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.incrementButtonTapped) { $0.count = 2 }
        store.assert { $0.log = ["first", "second"] }
        // Left running on purpose: non-exhaustive stores cancel quietly at the end.
        await store.send(.startTimerTapped)
    }

    @Test func nonExhaustiveModeStillReportsWrongAssertions() async {
        await withKnownIssue {
            let store = self.makeStore()
            store.exhaustivity = .off
            await store.send(.sendTwiceTapped)
            await store.send(.incrementButtonTapped) { $0.count = 5 }
        } matching: {
            $0.description.contains("count: 5")
        }
    }
}
