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
        await store.send(.list(.search(.textChanged("b")))) { $0.list.search.text = "b" }
        await clock.advance(by: .milliseconds(200))
        await store.send(.list(.search(.textChanged("bo")))) { $0.list.search.text = "bo" }
        // 300 ms after the first key, but only 100 after the second: nothing yet.
        await clock.advance(by: .milliseconds(100))
        #expect(store.state.list.visibleContacts.count == 2)
        await clock.advance(by: .milliseconds(200))
        await store.receive(\.list.search.queryApplied) { $0.list.search.query = "bo" }
        #expect(store.state.list.visibleContacts == [bob])
        await store.send(.list(.search(.clearButtonTapped))) {
            $0.list.search.text = ""
            $0.list.search.query = ""
        }
        #expect(store.state.list.visibleContacts.count == 2)
    }

    @Test func respondersAreSearchedTheSameWay() async {
        let cy = Fixtures.contact(4, "Cy", roles: .responder)
        let dee = Fixtures.contact(5, "Dee", roles: .responder)
        let store = TestStore(initialState: RespondersFeature.State(responders: [cy, dee])) {
            RespondersFeature()
        } withDependencies: {
            $0.continuousClock = clock
        }
        await store.send(.list(.search(.textChanged("de")))) { $0.list.search.text = "de" }
        await clock.advance(by: ContactSearchFeature.debounce)
        await store.receive(\.list.search.queryApplied) { $0.list.search.query = "de" }
        #expect(store.state.list.visibleContacts == [dee])
    }
}
