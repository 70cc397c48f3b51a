/// Groups reducers so that an operator (such as `ifLet`) applies to all of them together.
///
/// The reducers run top to bottom on each action and their effects are merged.
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
    @usableFromInline
    let reducers: Reducers

    /// Combines the reducers built by `build`.
    @inlinable
    public init(
        @ReducerBuilder<State, Action> _ build: () -> Reducers
    ) {
        self.reducers = build()
    }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        self.reducers.reduce(into: &state, action: action)
    }
}
