import ComposableCore
import ComposableCoreTesting
import Testing

@MainActor
struct EffectTests: CounterSuite {
    let clock = TestClock()

    init() { uncheckedUseMainSerialExecutor = true }

    @Test func synchronousActionsArriveInOrder() async {
        let store = self.makeStore()
        await store.send(.sendTwiceTapped)
        await store.receive(.logged("first")) { $0.log = ["first"] }
        await store.receive(\.logged, "second") { $0.log = ["first", "second"] }
    }

    @Test func runDeliversAfterTheClockAdvances() async {
        let store = self.makeStore()
        await store.send(.delayedIncrementTapped)
        await self.clock.advance(by: .milliseconds(999))
        await self.clock.advance(by: .milliseconds(1))
        await store.receive(\.incrementButtonTapped) { $0.count = 1 }
    }

    @Test func cancelByIDStopsTheEffect() async {
        let store = self.makeStore()
        await store.send(.delayedIncrementTapped)
        await store.send(.cancelDelayedTapped)
        await self.clock.run()
        // Exhaustive: an increment arriving here would fail the test as unreceived.
    }

    @Test func cancelInFlightKeepsOnlyTheLatest() async {
        let store = self.makeStore()
        await store.send(.latestWinsTapped(1))
        await self.clock.advance(by: .milliseconds(500))
        await store.send(.latestWinsTapped(2))
        await self.clock.advance(by: .seconds(1))
        await store.receive(.logged("latest 2")) { $0.log = ["latest 2"] }
    }

    @Test func debounceDeliversOnlyAfterQuiet() async {
        let store = self.makeStore()
        await store.send(.searchChanged("l"))
        await self.clock.advance(by: .milliseconds(200))
        await store.send(.searchChanged("li"))
        await self.clock.advance(by: .milliseconds(200))
        await store.send(.searchChanged("lif"))
        await self.clock.advance(by: .milliseconds(300))
        await store.receive(.searchResponse("lif")) { $0.log = ["search lif"] }
    }

    @Test func mergeRunsConcurrently() async {
        let store = self.makeStore()
        await store.send(.mergeTapped)
        await self.clock.advance(by: .seconds(2))
        await store.receive(.logged("fast")) { $0.log = ["fast"] }
        await store.receive(.logged("slow")) { $0.log = ["fast", "slow"] }
    }

    @Test func concatenateRunsOneAfterAnother() async {
        let store = self.makeStore()
        await store.send(.concatenateTapped)
        await self.clock.advance(by: .seconds(2))
        await store.receive(.logged("slow")) { $0.log = ["slow"] }
        // The second part starts only now, so it needs its own full second.
        await self.clock.advance(by: .milliseconds(999))
        await self.clock.advance(by: .milliseconds(1))
        await store.receive(.logged("fast")) { $0.log = ["slow", "fast"] }
        await store.receive(.logged("done")) { $0.log = ["slow", "fast", "done"] }
    }

    @Test func errorsGoToTheCatchHandler() async {
        let store = self.makeStore()
        await store.send(.failingTapped)
        await store.receive(.failed("caught")) { $0.log = ["caught"] }
    }

    @Test func longLivingEffectCanBeCancelled() async {
        let store = self.makeStore()
        await store.send(.startTimerTapped)
        await self.clock.advance(by: .seconds(2))
        await store.receive(\.timerTicked) { $0.count = 1 }
        await store.receive(\.timerTicked) { $0.count = 2 }
        await store.send(.stopTimerTapped)
        await self.clock.advance(by: .seconds(5))
    }

    @Test func testStoreTaskCancelEndsTheEffect() async {
        let store = self.makeStore()
        let task = await store.send(.startTimerTapped)
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.timerTicked) { $0.count = 1 }
        await task.cancel()
        #expect(task.isCancelled)
    }

    @Test func mapTransformsSentActions() async {
        let effect = Effect<Int>.merge(.send(1), .run { send in await send(2) }).map { "\($0)" }
        let store = Store(initialState: [String]()) {
            Reduce<[String], String> { state, action in
                state.append(action)
                return action == "start" ? effect : .none
            }
        }
        await store.send("start").finish()
        #expect(store.state == ["start", "1", "2"])
    }
}
