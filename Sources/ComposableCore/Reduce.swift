/// A reducer built from a closure, the usual place for a feature's own logic.
///
/// ```swift
/// Reduce { state, action in
///   switch action { … }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
    @usableFromInline
    let reduce: (inout State, Action) -> Effect<Action>

    /// Creates a reducer from a closure that mutates state and returns an effect.
    @inlinable
    public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
        self.reduce = reduce
    }

    /// Type-erases another reducer.
    @inlinable
    public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
        self.reduce = { reducer.reduce(into: &$0, action: $1) }
    }

    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        self.reduce(&state, action)
    }
}
