/// A change a view makes to one field of its feature's state — a text field typed in, a
/// toggle, a picker. Mirrors TCA's `BindingAction`: a feature whose `Action` is a
/// ``BindableAction`` has one `binding` case for all its fields instead of a setter action and
/// a setter case per field, and composes ``BindingReducer`` to apply them:
///
/// ```swift
/// @CasePathable enum Action: BindableAction { case binding(BindingAction<State>), saveButtonTapped }
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in … }   // still sees .binding, to react to a field that changed
/// }
/// store.send(.binding(.set(\.firstName, "Ada")))
/// ```
public struct BindingAction<Root>: Equatable, Sendable, CustomDumpStringConvertible {
    /// The field changed.
    public let keyPath: PartialKeyPath<Root> & Sendable
    /// The new value, for tests and descriptions.
    public let value: any Sendable
    private let apply: @Sendable (inout Root) -> Void
    private let isEqual: @Sendable (any Sendable) -> Bool

    /// Sets the field at `keyPath` to `value`.
    public static func set<Value: Equatable & Sendable>(
        _ keyPath: WritableKeyPath<Root, Value> & Sendable, _ value: Value
    ) -> Self {
        Self(
            keyPath: keyPath, value: value, apply: { $0[keyPath: keyPath] = value },
            isEqual: { ($0 as? Value) == value })
    }

    /// Whether this sets the field at `keyPath`: `case .binding(let change) where change.is(\.name)`.
    public func `is`(_ keyPath: PartialKeyPath<Root>) -> Bool { self.keyPath == keyPath }

    /// Applies the change to `state`.
    public func apply(to state: inout Root) { apply(&state) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.keyPath == rhs.keyPath && lhs.isEqual(rhs.value) }

    public var customDumpDescription: String { ".set(\(keyPath), \(String(customDumping: value)))" }
}

/// An action with a case for changes to its feature's fields (see ``BindingAction``).
public protocol BindableAction {
    /// The state the changes apply to.
    associatedtype State
    /// The action that carries a change: the feature's `case binding(BindingAction<State>)`.
    static func binding(_ action: BindingAction<State>) -> Self
    /// The change this action carries, if it is the binding case.
    var binding: BindingAction<State>? { get }
}

extension BindableAction {
    public var binding: BindingAction<State>? {
        AnyCasePath<Self, BindingAction<State>>(unsafe: { Self.binding($0) }).extract(from: self)
    }
}

/// Applies a feature's ``BindingAction``s to its state, before the reducers after it see them.
public struct BindingReducer<State, Action: BindableAction>: Reducer where Action.State == State {
    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        action.binding?.apply(to: &state)
        return .none
    }
}
