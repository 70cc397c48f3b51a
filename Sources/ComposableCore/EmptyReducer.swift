/// A reducer that does nothing: it leaves state alone and returns no effects.
///
/// Useful as a placeholder while a feature takes shape, and as the result of an empty
/// ``ReducerBuilder`` block.
public struct EmptyReducer<State, Action>: Reducer {
    /// Creates a reducer that does nothing.
    @inlinable
    public init() {}

    @inlinable
    public func reduce(into _: inout State, action _: Action) -> Effect<Action> {
        .none
    }
}
