import Observation

/// The engine shared by `Store` and `TestStore`: holds the root state, runs the reducer with
/// the store's dependencies, and feeds effect actions back in order.
@MainActor
package final class StoreCore<State, Action>: Observable {
    private var _state: State
    private let reducer: any Reducer<State, Action>
    /// The dependencies the reducer and its effects run with.
    package var dependencies: DependencyValues
    /// The effects started by the reducer.
    package let effects = EffectRuntime<Action>()
    /// Called after each action is reduced and its effects started: the action, the state right
    /// after it, whether an effect sent it, and the tasks it started. `TestStore` records these
    /// so a test can assert each step, including actions that arrive from effects.
    package var didReduce: ((_ action: Action, _ state: State, _ fromEffect: Bool, _ tasks: [Task<Void, Never>]) -> Void)?

    private let registrar = ObservationRegistrar()
    private var buffer: [(action: Action, fromEffect: Bool)] = []
    private var isSending = false

    package init(
        initialState: State,
        reducer: some Reducer<State, Action>,
        dependencies: DependencyValues
    ) {
        self._state = initialState
        self.reducer = reducer
        self.dependencies = dependencies
        self.effects.send = { [weak self] action in self?.send(action, fromEffect: true) }
    }

    isolated deinit {
        self.effects.cancelAll()
    }

    /// The current state; reading it inside `withObservationTracking` (or a SwiftUI view)
    /// subscribes to changes.
    package var state: State {
        self.registrar.access(self, keyPath: \.state)
        return self._state
    }

    /// Runs `action` through the reducer, then any actions its effects send synchronously, and
    /// starts their effects. Returns the tasks started along the way.
    @discardableResult
    package func send(_ action: Action, fromEffect: Bool = false) -> [Task<Void, Never>] {
        self.buffer.append((action, fromEffect))
        // An action sent synchronously while reducing waits its turn instead of re-entering the
        // reducer, which keeps actions strictly ordered.
        guard !self.isSending else { return [] }
        self.isSending = true
        defer { self.isSending = false }

        var tasks: [Task<Void, Never>] = []
        while !self.buffer.isEmpty {
            let (action, fromEffect) = self.buffer.removeFirst()
            var effect = Effect<Action>.none
            self.registrar.withMutation(of: self, keyPath: \.state) {
                effect = withDependencies {
                    $0 = self.dependencies
                } operation: {
                    self.reducer.reduce(into: &self._state, action: action)
                }
            }
            let started = self.effects.start(effect) { self.buffer.append(($0, true)) }
            self.didReduce?(action, self._state, fromEffect, started)
            tasks += started
        }
        return tasks
    }
}
