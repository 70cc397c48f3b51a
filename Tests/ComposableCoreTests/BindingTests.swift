import ComposableCore
import ComposableCoreTesting
import Testing

/// A form with two fields and a rule that reacts to one of them.
private struct FormFeature: Reducer {
    struct State: Equatable {
        var name = ""
        var notifyMe = false
        var nameEdits = 0
        var nested = Nested()
        struct Nested: Equatable { var note = "" }
    }

    @CasePathable
    enum Action: Equatable, Sendable, BindableAction {
        case binding(BindingAction<State>)
        case clearTapped
    }

    var body: some ReducerOf<Self> {
        BindingReducer()
        Reduce { state, action in
            switch action {
            case let .binding(change) where change.is(\.name):
                // Runs after the change is applied: it sees the new value.
                state.nameEdits += state.name.isEmpty ? 0 : 1
                return .none
            case .binding:
                return .none
            case .clearTapped:
                state.name = ""
                return .none
            }
        }
    }
}

@MainActor
struct BindingTests {
    @Test func aBindingSetsItsFieldBeforeTheFeatureSeesIt() async {
        let store = TestStore(initialState: FormFeature.State()) { FormFeature() }
        await store.send(.binding(.set(\.name, "Ada"))) {
            $0.name = "Ada"
            $0.nameEdits = 1
        }
        await store.send(.binding(.set(\.notifyMe, true))) { $0.notifyMe = true }
        await store.send(.binding(.set(\.nested.note, "Key under the mat"))) { $0.nested.note = "Key under the mat" }
        await store.send(.clearTapped) { $0.name = "" }
    }

    @Test func bindingsAreEqualWhenFieldAndValueAre() {
        typealias Change = BindingAction<FormFeature.State>
        #expect(Change.set(\.name, "Ada") == Change.set(\.name, "Ada"))
        #expect(Change.set(\.name, "Ada") != Change.set(\.name, "Bob"))
        #expect(Change.set(\.name, "") != Change.set(\.nested.note, ""))
        #expect(FormFeature.Action.binding(.set(\.notifyMe, true)).binding == .set(\.notifyMe, true))
        #expect(FormFeature.Action.clearTapped.binding == nil)
    }

    @Test func aBindingDescribesItsFieldAndValue() {
        let change = BindingAction<FormFeature.State>.set(\.name, "Ada")
        #expect(String(customDumping: change).contains("\"Ada\""))
        #expect(String(customDumping: change).contains("name"))
    }
}
