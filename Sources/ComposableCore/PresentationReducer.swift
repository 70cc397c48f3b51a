extension Reducer {
    /// Runs `destination` on presented child state held in a ``PresentationState``, handling
    /// ``PresentationAction``:
    ///
    /// - `.presented(action)` runs the child first, then this reducer; an ``EphemeralState``
    ///   child (an alert) is then dismissed, unless this reducer presented something new.
    /// - `.dismiss` runs this reducer (so it can react), then sets the child state to `nil`.
    ///
    /// Whenever the presentation ends or is replaced, the child's running effects are cancelled.
    public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
        _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
        action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
        @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> _PresentationReducer<Self, Destination>
    where Destination.State == DestinationState, Destination.Action == DestinationAction {
        _PresentationReducer(
            parent: self, destination: destination(), toPresentationState: toPresentationState,
            toPresentationAction: AnyCasePath(toPresentationAction),
            location: SourceLocation(fileID, filePath, line, column)
        )
    }
}

extension Reducer {
    /// ``ifLet(_:action:destination:fileID:filePath:line:column:)`` for a destination with no
    /// logic of its own (an alert, a confirmation dialog): as in TCA, the child reducer is left
    /// out, and the presentation's rules (dismissed after its action, effects cancelled when
    /// it ends) hold all the same.
    public func ifLet<DestinationState, DestinationAction>(
        _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
        action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
        ifLet(
            toPresentationState, action: toPresentationAction, destination: { EmptyReducer() }, fileID: fileID, filePath: filePath,
            line: line, column: column)
    }
}

/// The reducer built by ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
    let parent: Parent
    let destination: Destination
    let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
    let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>
    let location: SourceLocation

    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        let before = state[keyPath: self.toPresentationState]
        var destinationEffects = Effect<Parent.Action>.none
        let parentEffects: Effect<Parent.Action>

        switch (before.wrappedValue, self.toPresentationAction.extract(from: action)) {
        case (.some, .dismiss):
            parentEffects = self.parent.reduce(into: &state, action: action)
            // Only dismiss what the action was about: the parent may already have presented
            // something new in response.
            if state[keyPath: self.toPresentationState].presentationID == before.presentationID {
                state[keyPath: self.toPresentationState].wrappedValue = nil
            }

        case (var destinationState?, .presented(let destinationAction)):
            let embed = self.toPresentationAction
            destinationEffects = self.destination.reduce(
                into: &destinationState, action: destinationAction, in: self.navigationID(before.presentationID),
                embed: { embed.embed(.presented($0)) })
            let ephemeral = isEphemeral(destinationState)
            // Written back only when it can have changed: setting an alert presents it anew.
            if !ephemeral {
                state[keyPath: self.toPresentationState].wrappedValue = destinationState
            }
            parentEffects = self.parent.reduce(into: &state, action: action)
            // An alert has done its job once it sent something; dismiss it unless the parent
            // has already presented something else (another alert, too) in response.
            if ephemeral, state[keyPath: self.toPresentationState].presentationID == before.presentationID {
                state[keyPath: self.toPresentationState].wrappedValue = nil
            }

        case (nil, .presented):
            self.location.report(
                """
                An "ifLet" received a presentation action when destination state was absent: \(action)

                This usually means an effect of the destination was still sending after it was \
                dismissed, or an action was sent to a store scoped to a destination that is gone.
                """
            )
            parentEffects = self.parent.reduce(into: &state, action: action)

        case (nil, .dismiss), (_, nil):
            // Dismissing what is already gone is harmless: a sheet can report its dismissal after
            // the parent has cleared it.
            parentEffects = self.parent.reduce(into: &state, action: action)
        }

        let after = state[keyPath: self.toPresentationState].presentationID
        let dismissEffects: Effect<Parent.Action> =
            if let presented = before.presentationID, presented != after {
                .cancelNavigationContext(self.navigationID(presented))
            } else {
                .none
            }
        return .merge(destinationEffects, parentEffects, dismissEffects)
    }

    private func navigationID(_ presentationID: PresentationID?) -> NavigationID {
        NavigationID(self.toPresentationState, presentationID)
    }
}
