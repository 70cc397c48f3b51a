import ComposableCore
import ComposableCoreTesting
import Foundation
import LifeSignalClient
import LifeSignalModels
import Testing

@testable import LifeSignalFeatures

@MainActor
struct ContactSearchFeatureTests {
    let clock = TestClock()

    @Test func theListFiltersOnceTypingPauses() async {
        let ada = Fixtures.contact(2, "Ada", roles: .dependent)
        let bob = Fixtures.contact(3, "Bob", roles: .dependent)
        let store = TestStore(initialState: DependentsFeature.State(dependents: [ada, bob])) {
            DependentsFeature()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.search(.textChanged("b"))) { $0.search.text = "b" }
        await clock.advance(by: .milliseconds(200))
        await store.send(.search(.textChanged("bo"))) { $0.search.text = "bo" }
        // 300 ms after the first key, but only 100 after the second: nothing yet.
        await clock.advance(by: .milliseconds(100))
        #expect(store.state.visibleDependents.count == 2)
        await clock.advance(by: .milliseconds(200))
        await store.receive(\.search.queryApplied) { $0.search.query = "bo" }
        #expect(store.state.visibleDependents == [bob])
        await store.send(.search(.clearButtonTapped)) {
            $0.search.text = ""
            $0.search.query = ""
        }
        #expect(store.state.visibleDependents.count == 2)
    }

    @Test func respondersAreSearchedTheSameWay() async {
        let cy = Fixtures.contact(4, "Cy", roles: .responder)
        let dee = Fixtures.contact(5, "Dee", roles: .responder)
        let store = TestStore(initialState: RespondersFeature.State(responders: [cy, dee])) {
            RespondersFeature()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.search(.textChanged("de"))) { $0.search.text = "de" }
        await clock.advance(by: ContactSearchFeature.debounce)
        await store.receive(\.search.queryApplied) { $0.search.query = "de" }
        #expect(store.state.visibleResponders == [dee])
    }
}
