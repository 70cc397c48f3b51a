extension Reducer {
    /// Runs `child` on one case of enum state when its actions arrive, before this reducer.
    ///
    /// When the state leaves that case the child's running effects are cancelled. A child
    /// action arriving while the state is in another case is reported as an issue.
    public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
        _ toCaseState: CaseKeyPath<State, CaseState>,
        action toCaseAction: CaseKeyPath<Action, CaseAction>,
        @ReducerBuilder<CaseState, CaseAction> then child: () -> Case,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> _IfCaseLetReducer<Self, Case>
    where Case.State == CaseState, Case.Action == CaseAction {
        _IfCaseLetReducer(
            parent: self, child: child(), keyPath: toCaseState,
            toChildState: AnyCasePath(toCaseState), toChildAction: AnyCasePath(toCaseAction),
            location: SourceLocation(fileID, filePath, line, column)
        )
    }
}

/// The reducer built by ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
    let parent: Parent
    let child: Child
    let keyPath: AnyKeyPath
    let toChildState: AnyCasePath<Parent.State, Child.State>
    let toChildAction: AnyCasePath<Parent.Action, Child.Action>
    let location: SourceLocation

    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        let navigationID = NavigationID(self.keyPath, Optional<Int>.none)
        let wasInCase = self.toChildState.extract(from: state) != nil
        var childEffects = Effect<Parent.Action>.none
        if let childAction = self.toChildAction.extract(from: action) {
            if var childState = self.toChildState.extract(from: state) {
                childEffects = self.child.reduce(
                    into: &childState, action: childAction, in: navigationID, embed: self.toChildAction.embed)
                state = self.toChildState.embed(childState)
            } else {
                self.location.report(
                    """
                    An "ifCaseLet" received a child action when the state was in a different case: \
                    \(action)
                    """
                )
            }
        }
        let parentEffects = self.parent.reduce(into: &state, action: action)
        let isInCase = self.toChildState.extract(from: state) != nil
        return .merge(
            childEffects,
            parentEffects,
            wasInCase && !isInCase ? .cancelNavigationContext(navigationID) : .none
        )
    }
}
