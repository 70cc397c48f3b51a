import ComposableCore
import ComposableCoreTesting
import Testing

@MainActor
struct NavigationTests {
    let clock = TestClock()

    init() {
        // Effects run on the global executor; serializing it onto the main actor makes "the effect
        // has reached its clock sleep before `advance`" deterministic, as TCA recommends.
        uncheckedUseMainSerialExecutor = true
    }

    func makeStore(_ state: ParentFeature.State = .init()) -> TestStoreOf<ParentFeature> {
        TestStore(initialState: state) {
            ParentFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
        }
    }

    @Test func scopeRunsTheChildThenTheParent() async {
        let store = self.makeStore()
        await store.send(.embedded(.startTapped))
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.embedded.ticked) {
            $0.embedded.ticks = 1
            $0.embeddedTicksSeenByParent = 1
        }
        await store.send(.embedded(.stopTapped))
    }

    @Test func dismissCancelsThePresentedChildsEffects() async {
        let store = self.makeStore()
        await store.send(.presentTapped) { $0.destination = TimerFeature.State(id: 1) }
        await store.send(.destination(.presented(.startTapped)))
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.destination.presented.ticked) { $0.destination?.ticks = 1 }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        // Exhaustive: a tick now would be an unreceived action, a live timer a running effect.
        await self.clock.advance(by: .seconds(5))
    }

    @Test func parentNillingTheDestinationCancelsItsEffects() async {
        let store = self.makeStore()
        await store.send(.presentTapped) { $0.destination = TimerFeature.State(id: 1) }
        await store.send(.destination(.presented(.startTapped)))
        await store.send(.destination(.presented(.doneTapped)))
        await store.receive(\.destination.delegate.done) {
            $0.doneCount = 1
            $0.destination = nil
        }
        await self.clock.advance(by: .seconds(5))
    }

    @Test func aNewPresentationIsNotCancelledByTheOldOnesDismissal() async {
        let store = self.makeStore()
        await store.send(.presentTapped) { $0.destination = TimerFeature.State(id: 1) }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
        await store.send(.presentTapped) { $0.destination = TimerFeature.State(id: 1) }
        await store.send(.destination(.presented(.startTapped)))
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.destination.ticked) { $0.destination?.ticks = 1 }
        await store.send(.destination(.dismiss)) { $0.destination = nil }
    }

    @Test func childActionWithoutPresentedStateIsReported() async {
        await withKnownIssue {
            let store = self.makeStore()
            await store.send(.destination(.presented(.ticked)))
        } matching: {
            $0.description.contains("destination state was absent")
        }
    }

    @Test func optionalIfLetCancelsWhenTheStateGoesAway() async {
        let store = self.makeStore()
        await store.send(.showOptionalTapped) { $0.optional = TimerFeature.State(id: 2) }
        await store.send(.optional(.startTapped))
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.optional.ticked) { $0.optional?.ticks = 1 }
        await store.send(.hideOptionalTapped) { $0.optional = nil }
        await self.clock.advance(by: .seconds(5))
    }

    @Test func forEachKeepsEachElementsEffectsApart() async {
        let store = self.makeStore(
            ParentFeature.State(rows: [TimerFeature.State(id: 1), TimerFeature.State(id: 2)])
        )
        await store.send(.rows(.element(id: 1, action: .startTapped)))
        await store.send(.rows(.element(id: 2, action: .startTapped)))
        // Same cancel id in both rows: stopping row 1 must not stop row 2.
        await store.send(.rows(.element(id: 1, action: .stopTapped)))
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.rows[id: 2].ticked) { $0.rows[id: 2]?.ticks = 1 }
        // Removing an element cancels its effects.
        await store.send(.removeRowTapped(id: 2)) { $0.rows.remove(id: 2) }
        await self.clock.advance(by: .seconds(5))
    }

    @Test func stackPushElementActionsAndPop() async {
        let store = self.makeStore()
        await store.send(.pushTapped) { $0.path.append(TimerFeature.State(id: 10)) }
        await store.send(.pushTapped) { $0.path.append(TimerFeature.State(id: 11)) }
        #expect(store.state.path.ids == [0, 1])
        await store.send(.path(.element(id: 1, action: .startTapped)))
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.path[id: 1].ticked) { $0.path[id: 1]?.ticks = 1 }
        await store.send(.path(.element(id: 0, action: .doneTapped)))
        await store.receive(\.path[id: 0].delegate.done) { $0.doneCount = 1 }
        // Popping from #1 removes it and cancels its timer.
        await store.send(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
        await self.clock.advance(by: .seconds(5))
        // A push from the UI carries its own id; later appends continue after it.
        await store.send(.path(.push(id: 5, state: TimerFeature.State(id: 99)))) {
            $0.path[id: 5] = TimerFeature.State(id: 99)
        }
        await store.send(.pushTapped) { $0.path.append(TimerFeature.State(id: 12)) }
        #expect(store.state.path.ids == [0, 5, 6])
    }

    @Test func ifCaseLetRunsTheCaseAndCancelsWhenItChanges() async {
        let store = TestStore(initialState: SessionFeature.State.loggedOut) {
            SessionFeature()
        } withDependencies: { [clock] in
            $0.continuousClock = clock
        }
        await store.send(.logInTapped) { $0 = .loggedIn(TimerFeature.State(id: 0)) }
        await store.send(.loggedIn(.startTapped))
        await self.clock.advance(by: .seconds(1))
        await store.receive(\.loggedIn.ticked) { $0 = .loggedIn(TimerFeature.State(id: 0, ticks: 1)) }
        await store.send(.logOutTapped) { $0 = .loggedOut }
        await self.clock.advance(by: .seconds(5))
    }
}
