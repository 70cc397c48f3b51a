import Observation

/// The engine shared by `Store` and `TestStore`: holds the root state, runs the reducer with
/// the store's dependencies, and feeds effect actions back in order.
@MainActor
package final class StoreCore<State, Action>: Observable {
  private var _state: State
  private let reducer: any Reducer<State, Action>
  /// The dependencies the reducer and its effects run with.
  package let dependencies: DependencyValues
  /// The effects started by the reducer.
  package let effects = EffectRuntime<Action>()
  /// Called after the reducer handled an action that came from an effect, with the new state;
  /// `TestStore` records these so a test can `receive` them.
  package var didReceive: ((Action, State) -> Void)?

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

  /// Replaces the state without running the reducer (used by tests to re-sync).
  package func withMutation(_ body: (inout State) -> Void) {
    self.registrar.withMutation(of: self, keyPath: \.state) { body(&self._state) }
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
      if fromEffect { self.didReceive?(action, self._state) }
      tasks += self.effects.start(effect) { self.buffer.append(($0, true)) }
    }
    return tasks
  }
}
