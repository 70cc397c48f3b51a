/// An action of one element of an `IdentifiedArray`, embedded in the parent's actions:
///
/// ```swift
/// @CasePathable enum Action {
///   case contacts(IdentifiedActionOf<ContactRowFeature>)
/// }
/// ```
@CasePathable
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
    /// An action sent to the element with `id`.
    indirect case element(id: ID, action: Action)
}

/// An ``IdentifiedAction`` for the elements of the reducer `R`.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}

extension Case {
    /// The actions of the element with `id`: `\.contacts[id: contactID]`, for
    /// `store.scope(state: \.contacts[id: contactID], action: \.contacts[id: contactID])`.
    public subscript<ID: Hashable & Sendable, Action>(id id: ID) -> Case<Action>
    where Value == IdentifiedAction<ID, Action> {
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
