/// Embeds a child reducer in a parent domain: child actions (picked out by a case key path)
/// run the child on its part of the parent state.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.checkIn, action: \.checkIn) {
///     CheckInFeature()
///   }
///   Reduce { state, action in … }
/// }
/// ```
///
/// The child runs where `Scope` sits in the body, so put it before the parent's `Reduce` for
/// the child to go first. The state can also be one case of an enum (`state: \.practice`).
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
    enum ToChildState {
        case keyPath(WritableKeyPath<ParentState, Child.State>)
        case casePath(AnyCasePath<ParentState, Child.State>)
    }

    let toChildState: ToChildState
    let toChildAction: AnyCasePath<ParentAction, Child.Action>
    let child: Child
    let location: SourceLocation

    /// Scopes to child state held in a property of the parent state.
    public init<ChildState, ChildAction>(
        state toChildState: WritableKeyPath<ParentState, ChildState>,
        action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
        @ReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.toChildState = .keyPath(toChildState)
        self.toChildAction = AnyCasePath(toChildAction)
        self.child = child()
        self.location = SourceLocation(#fileID, #filePath, #line, #column)
    }

    /// Scopes to child state held in one case of enum parent state. A child action that arrives
    /// while the state is in another case is reported as an issue.
    public init<ChildState, ChildAction>(
        state toChildState: CaseKeyPath<ParentState, ChildState>,
        action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
        @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.toChildState = .casePath(AnyCasePath(toChildState))
        self.toChildAction = AnyCasePath(toChildAction)
        self.child = child()
        self.location = SourceLocation(fileID, filePath, line, column)
    }

    public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
        guard let childAction = self.toChildAction.extract(from: action) else { return .none }
        let embed = self.toChildAction
        switch self.toChildState {
        case let .keyPath(keyPath):
            return self.child.reduce(into: &state[keyPath: keyPath], action: childAction)
                .map { embed.embed($0) }

        case let .casePath(casePath):
            guard var childState = casePath.extract(from: state) else {
                self.location.report(
                    """
                    A "Scope" received a child action when child state was set to a different case: \
                    \(action)
                    """
                )
                return .none
            }
            defer { state = casePath.embed(childState) }
            return self.child.reduce(into: &childState, action: childAction)
                .map { embed.embed($0) }
        }
    }
}
