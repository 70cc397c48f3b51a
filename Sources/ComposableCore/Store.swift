import Observation

/// The runtime that powers a feature: holds its state, runs its reducer for each action and
/// executes the effects. Mirrors TCA's `Store`; main-actor isolated, and `Observable`, so a
/// SwiftUI view (or `withObservationTracking`) re-reads it when state changes.
///
/// ```swift
/// let store = Store(initialState: CounterFeature.State()) {
///   CounterFeature()
/// } withDependencies: {
///   $0.continuousClock = ContinuousClock()
/// }
/// store.send(.incrementButtonTapped)
/// store.count  // state is readable through the store
/// ```
@MainActor
@dynamicMemberLookup
public final class Store<State, Action>: Observable {
    // A scoped store is a view onto the root: it reads through the root's state and sends
    // through the root's send, so there is exactly one source of truth and one action order.
    private let toState: @MainActor () -> State
    private let toSend: @MainActor (Action) -> [Task<Void, Never>]
    // Keeps the root engine alive as long as any store derived from it.
    private let core: AnyObject
    private var children: [ScopeID: AnyObject] = [:]

    /// Creates a store for the reducer built by `reducer`, starting from `initialState`.
    /// `prepareDependencies` overrides dependencies for the reducer and all of its effects.
    public convenience init<R: Reducer<State, Action>>(
        initialState: @autoclosure () -> State,
        @ReducerBuilder<State, Action> reducer: () -> R,
        withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
    ) {
        // Built inside `withDependencies` so `@Dependency` properties captured at init see the
        // overrides, as in TCA.
        let (state, reducer, dependencies) = withDependencies {
            prepareDependencies?(&$0)
        } operation: {
            (initialState(), reducer(), DependencyValues._current)
        }
        let core = StoreCore(initialState: state, reducer: reducer, dependencies: dependencies)
        self.init(core: core, toState: { core.state }, toSend: { core.send($0) })
    }

    private init(
        core: AnyObject,
        toState: @escaping @MainActor () -> State,
        toSend: @escaping @MainActor (Action) -> [Task<Void, Never>]
    ) {
        self.core = core
        self.toState = toState
        self.toSend = toSend
    }

    /// The current state of the feature.
    public var state: State { self.toState() }

    /// Reads state through the store, so `store.count` works like `store.state.count`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
        self.state[keyPath: keyPath]
    }

    /// Reads a value from the current state.
    public func withState<R>(_ body: (_ state: State) -> R) -> R {
        body(self.state)
    }

    /// Sends an action to the store. The returned task finishes when the effects started by this
    /// action finish; cancelling it cancels them.
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        StoreTask(tasks: self.toSend(action))
    }

    /// A store for a child feature, focused on `state` and embedding its actions with `action`.
    /// Scoping twice the same way returns the same store.
    public func scope<ChildState, ChildAction>(
        state: KeyPath<State, ChildState>,
        action: CaseKeyPath<Action, ChildAction>
    ) -> Store<ChildState, ChildAction> {
        let id = ScopeID(state: state, action: action)
        if let child = self.children[id] as? Store<ChildState, ChildAction> { return child }
        let toState = self.toState
        let toSend = self.toSend
        let embed = AnyCasePath(action)
        let child = Store<ChildState, ChildAction>(
            core: self.core,
            toState: { toState()[keyPath: state] },
            toSend: { toSend(embed.embed($0)) }
        )
        self.children[id] = child
        return child
    }

    /// A store for optional child state, such as a presented destination; `nil` while the state
    /// is `nil`. After the child state goes away the store keeps returning its last value, so a
    /// view that is animating out can still read it.
    public func scope<ChildState, ChildAction>(
        state: KeyPath<State, ChildState?>,
        action: CaseKeyPath<Action, ChildAction>
    ) -> Store<ChildState, ChildAction>? {
        guard var last = self.state[keyPath: state] else { return nil }
        let id = ScopeID(state: state, action: action)
        if let child = self.children[id] as? Store<ChildState, ChildAction> { return child }
        let toState = self.toState
        let toSend = self.toSend
        let embed = AnyCasePath(action)
        let child = Store<ChildState, ChildAction>(
            core: self.core,
            toState: {
                if let current = toState()[keyPath: state] { last = current }
                return last
            },
            toSend: { toSend(embed.embed($0)) }
        )
        self.children[id] = child
        return child
    }
}

/// A store whose state and actions are those of the reducer `R`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

/// Identifies a scoped child store so repeated scoping returns the same instance, which keeps
/// SwiftUI identity stable. Key paths are immutable values, which is why this is safe to share.
struct ScopeID: Hashable, @unchecked Sendable {
    let state: AnyKeyPath
    let action: AnyKeyPath
}
