/// The actions of a navigation stack, embedded in the parent's actions:
///
/// ```swift
/// @CasePathable enum Action {
///   case path(StackActionOf<Path>)
/// }
/// ```
@CasePathable
public enum StackAction<State, Action> {
    /// An action of the element with `id`.
    indirect case element(id: StackElementID, action: Action)
    /// The element with `id` and everything above it were popped (by the UI or the feature).
    case popFrom(id: StackElementID)
    /// The UI pushed `state` with `id` (a navigation link).
    case push(id: StackElementID, state: State)
}

/// A ``StackAction`` for the elements of the reducer `R`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

extension Case {
    /// The actions of the stack element with `id`: `\.path[id: 0]`.
    public subscript<State, Action>(id id: StackElementID) -> Case<Action>
    where Value == StackAction<State, Action> {
        Case<Action>(
            embed: { self._embed(.element(id: id, action: $0)) },
            extract: { (root: Any) -> Action? in
                guard case let .element(elementID, action)? = self._extract(from: root), elementID == id
                else { return nil }
                return action
            }
        )
    }
}
