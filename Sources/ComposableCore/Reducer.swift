/// A type that evolves the state of a feature given an action, and describes the effects the
/// feature should run next. Mirrors TCA's `Reducer`.
///
/// Conform either by implementing ``body`` (composing other reducers) or by implementing
/// ``reduce(into:action:)`` directly:
///
/// ```swift
/// struct CounterFeature: Reducer {
///   struct State: Equatable { var count = 0 }
///   @CasePathable enum Action { case incrementButtonTapped }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
public protocol Reducer<State, Action> {
    /// The state the reducer evolves.
    associatedtype State
    /// The actions the reducer handles.
    associatedtype Action
    /// The composed reducer returned by ``body``; `Never` when ``reduce(into:action:)`` is
    /// implemented directly.
    associatedtype Body

    /// Evolves `state` for `action` and returns the effect to run next.
    func reduce(into state: inout State, action: Action) -> Effect<Action>

    /// The reducer's composition of other reducers.
    @ReducerBuilder<State, Action>
    var body: Body { get }
}

/// A convenience for naming a reducer's type by its feature: `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
    /// A reducer that implements ``reduce(into:action:)`` has no body; asking for it is a bug.
    public var body: Body {
        fatalError(
            """
            '\(Self.self)' has no body. Do not access a reducer's 'body' property directly, as it may \
            not exist. To run a reducer, call 'Reducer.reduce(into:action:)', instead.
            """
        )
    }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
    /// Runs the reducer's ``body``.
    @inlinable
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        self.body.reduce(into: &state, action: action)
    }
}
