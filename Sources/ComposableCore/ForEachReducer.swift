extension Reducer {
    /// Runs `element` on the element of an `IdentifiedArray` an ``IdentifiedAction`` names,
    /// before this reducer.
    ///
    /// Each element's effects live in their own context: removing the element cancels them, and
    /// cancellation ids of one element do not reach another. An action for an id that is not in
    /// the array is reported as an issue.
    public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
        _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
        action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
        @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> _ForEachReducer<Self, ID, Element>
    where Element.State == ElementState, Element.Action == ElementAction {
        _ForEachReducer(
            parent: self, element: element(), toElementsState: toElementsState,
            toElementAction: AnyCasePath(toElementAction),
            location: SourceLocation(fileID, filePath, line, column)
        )
    }
}

/// The reducer built by `forEach` over an `IdentifiedArray`.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
    let parent: Parent
    let element: Element
    let toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
    let toElementAction: AnyCasePath<Parent.Action, IdentifiedAction<ID, Element.Action>>
    let location: SourceLocation

    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        let idsBefore = state[keyPath: self.toElementsState].ids
        var elementEffects = Effect<Parent.Action>.none
        if case let .element(id, elementAction)? = self.toElementAction.extract(from: action) {
            if state[keyPath: self.toElementsState][id: id] != nil {
                let embed = self.toElementAction
                elementEffects = self.element.reduce(
                    into: &state[keyPath: self.toElementsState][id: id]!, action: elementAction, in: self.navigationID(id),
                    embed: { embed.embed(.element(id: id, action: $0)) })
            } else {
                self.location.report(
                    """
                    A "forEach" received an action for a missing element (id \(id)): \(action)

                    This usually means an effect of the element was still sending after it was removed.
                    """
                )
            }
        }
        let parentEffects = self.parent.reduce(into: &state, action: action)
        let idsAfter = state[keyPath: self.toElementsState].ids
        let removedEffects: Effect<Parent.Action> =
            idsBefore == idsAfter
            ? .none
            : .merge(idsBefore.subtracting(idsAfter).map { .cancelNavigationContext(self.navigationID($0)) })
        return .merge(elementEffects, parentEffects, removedEffects)
    }

    private func navigationID(_ id: ID) -> NavigationID {
        NavigationID(self.toElementsState, id)
    }
}
