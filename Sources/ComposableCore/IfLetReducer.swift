extension Reducer {
    /// Runs `wrapped` on optional child state when child actions arrive, before this reducer.
    ///
    /// When the child state becomes `nil` (or an enum child switches case) the child's running
    /// effects are cancelled. A child action arriving while the state is `nil` is reported as an
    /// issue, because it means an effect outlived its feature.
    public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
        _ toWrappedState: WritableKeyPath<State, WrappedState?>,
        action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
        @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> _IfLetReducer<Self, Wrapped>
    where Wrapped.State == WrappedState, Wrapped.Action == WrappedAction {
        _IfLetReducer(
            parent: self, child: wrapped(), toChildState: toWrappedState,
            toChildAction: AnyCasePath(toWrappedAction),
            location: SourceLocation(fileID, filePath, line, column)
        )
    }
}

/// The reducer built by ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
    let parent: Parent
    let child: Child
    let toChildState: WritableKeyPath<Parent.State, Child.State?>
    let toChildAction: AnyCasePath<Parent.Action, Child.Action>
    let location: SourceLocation

    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        let before = self.navigationID(state)
        var childEffects = Effect<Parent.Action>.none
        if let childAction = self.toChildAction.extract(from: action) {
            if var childState = state[keyPath: self.toChildState], let before {
                childEffects = self.child.reduce(
                    into: &childState, action: childAction, in: before, embed: self.toChildAction.embed)
                state[keyPath: self.toChildState] = childState
            } else {
                self.location.report(
                    """
                    An "ifLet" received a child action when child state was "nil": \(action)

                    This usually means an effect of the child was still sending after the child was \
                    dismissed, or an action was sent to a store scoped to state that is now gone.
                    """
                )
            }
        }
        let parentEffects = self.parent.reduce(into: &state, action: action)
        let after = self.navigationID(state)
        return .merge(
            childEffects,
            parentEffects,
            before != after ? .cancelNavigationContext(before) : .none
        )
    }

    private func navigationID(_ state: Parent.State) -> NavigationID? {
        state[keyPath: self.toChildState].map { NavigationID(self.toChildState, caseName(of: $0)) }
    }
}
