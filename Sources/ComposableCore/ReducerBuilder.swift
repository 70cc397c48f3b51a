/// The result builder behind ``Reducer/body`` and every operator that takes a trailing block of
/// reducers. Reducers in a block run top to bottom and their effects are merged.
@resultBuilder
public enum ReducerBuilder<State, Action> {
    @inlinable
    public static func buildBlock() -> EmptyReducer<State, Action> {
        EmptyReducer()
    }

    @inlinable
    public static func buildExpression<R: Reducer>(_ expression: R) -> R
    where R.State == State, R.Action == Action {
        expression
    }

    @inlinable
    public static func buildPartialBlock<R: Reducer>(first: R) -> R
    where R.State == State, R.Action == Action {
        first
    }

    @inlinable
    public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
        accumulated: R0, next: R1
    ) -> _SequenceReducer<R0, R1> {
        _SequenceReducer(accumulated, next)
    }

    @inlinable
    public static func buildOptional<R: Reducer>(_ wrapped: R?) -> R?
    where R.State == State, R.Action == Action {
        wrapped
    }

    @inlinable
    public static func buildEither<First: Reducer, Second: Reducer>(
        first reducer: First
    ) -> _ConditionalReducer<First, Second>
    where First.State == State, First.Action == Action {
        .first(reducer)
    }

    @inlinable
    public static func buildEither<First: Reducer, Second: Reducer>(
        second reducer: Second
    ) -> _ConditionalReducer<First, Second>
    where Second.State == State, Second.Action == Action {
        .second(reducer)
    }

    @inlinable
    public static func buildArray<R: Reducer>(_ reducers: [R]) -> _ArrayReducer<R>
    where R.State == State, R.Action == Action {
        _ArrayReducer(reducers: reducers)
    }

    @inlinable
    public static func buildLimitedAvailability<R: Reducer>(_ wrapped: R) -> Reduce<State, Action>
    where R.State == State, R.Action == Action {
        Reduce(wrapped)
    }
}

/// Two reducers run one after the other; built by ``ReducerBuilder``.
public struct _SequenceReducer<R0: Reducer, R1: Reducer>: Reducer
where R0.State == R1.State, R0.Action == R1.Action {
    @usableFromInline let r0: R0
    @usableFromInline let r1: R1

    @inlinable
    init(_ r0: R0, _ r1: R1) {
        self.r0 = r0
        self.r1 = r1
    }

    @inlinable
    public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
        // Both run even if the first one's effect is `.none`: each reducer sees every action.
        let first = self.r0.reduce(into: &state, action: action)
        let second = self.r1.reduce(into: &state, action: action)
        return .merge(first, second)
    }
}

/// One of two reducers, chosen by an `if`/`else` or `switch` in a ``ReducerBuilder`` block.
public enum _ConditionalReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
    case first(First)
    case second(Second)

    @inlinable
    public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
        switch self {
        case let .first(first): first.reduce(into: &state, action: action)
        case let .second(second): second.reduce(into: &state, action: action)
        }
    }
}

/// Reducers built by a `for` loop in a ``ReducerBuilder`` block.
public struct _ArrayReducer<Element: Reducer>: Reducer {
    @usableFromInline let reducers: [Element]

    @inlinable
    init(reducers: [Element]) {
        self.reducers = reducers
    }

    @inlinable
    public func reduce(
        into state: inout Element.State, action: Element.Action
    ) -> Effect<
        Element.Action
    > {
        .merge(self.reducers.map { $0.reduce(into: &state, action: action) })
    }
}

/// An `if` without `else` in a ``ReducerBuilder`` block: the reducer runs only when present.
extension Optional: Reducer where Wrapped: Reducer {
    @inlinable
    public func reduce(
        into state: inout Wrapped.State, action: Wrapped.Action
    ) -> Effect<
        Wrapped.Action
    > {
        self?.reduce(into: &state, action: action) ?? .none
    }
}
