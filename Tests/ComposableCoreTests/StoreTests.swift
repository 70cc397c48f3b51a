import ComposableCore
import Observation
import Testing

@MainActor
struct StoreTests {
    init() {
        uncheckedUseMainSerialExecutor = true
    }

    @Test func sendRunsTheReducerAndItsEffects() async {
        let store = Store(initialState: CounterFeature.State()) {
            CounterFeature()
        } withDependencies: {
            $0.continuousClock = ImmediateClock()
        }
        store.send(.incrementButtonTapped)
        #expect(store.count == 1)
        await store.send(.delayedIncrementTapped).finish()
        #expect(store.state.count == 2)
        #expect(store.withState(\.count) == 2)
    }

    @Test func scopedStoreReadsAndSendsThroughTheParent() {
        let store = Store(initialState: ParentFeature.State()) {
            ParentFeature()
        }
        let child = store.scope(state: \.embedded, action: \.embedded)
        #expect(child === store.scope(state: \.embedded, action: \.embedded))
        child.send(.ticked)
        #expect(child.ticks == 1)
        #expect(store.embeddedTicksSeenByParent == 1)
    }

    @Test func optionalScopeFollowsPresentation() {
        let store = Store(initialState: ParentFeature.State()) {
            ParentFeature()
        }
        #expect(store.scope(state: \.destination, action: \.destination.presented) == nil)
        store.send(.presentTapped)
        let child = store.scope(state: \.destination, action: \.destination.presented)
        child?.send(.ticked)
        #expect(store.destination?.ticks == 1)
        let row = Store(initialState: ParentFeature.State(rows: [TimerFeature.State(id: 7)])) {
            ParentFeature()
        }
        let rowStore = row.scope(state: \.rows[id: 7], action: \.rows[id: 7])
        rowStore?.send(.ticked)
        #expect(row.rows[id: 7]?.ticks == 1)
    }

    @Test func observersAreNotifiedOfStateChanges() {
        let store = Store(initialState: ParentFeature.State()) {
            ParentFeature()
        }
        let child = store.scope(state: \.embedded, action: \.embedded)
        let changed = LockIsolated(false)
        withObservationTracking {
            _ = child.ticks
        } onChange: {
            changed.setValue(true)
        }
        #expect(!changed.value)
        store.send(.embedded(.ticked))
        #expect(changed.value)
    }

    @Test func cancellingTheStoreTaskCancelsItsEffects() async {
        let clock = TestClock()
        let store = Store(initialState: CounterFeature.State()) {
            CounterFeature()
        } withDependencies: {
            $0.continuousClock = clock
        }
        let task = store.send(.startTimerTapped)
        await clock.advance(by: .seconds(2))
        #expect(store.count == 2)
        task.cancel()
        await task.finish()
        await clock.advance(by: .seconds(2))
        #expect(store.count == 2)
    }
}
