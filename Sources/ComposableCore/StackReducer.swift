extension Reducer {
    /// Runs `destination` on the elements of a navigation stack, handling ``StackAction``:
    ///
    /// - `.element(id:action:)` runs the destination on that element first, then this reducer.
    /// - `.popFrom(id:)` runs this reducer, then pops the element and everything above it.
    /// - `.push(id:state:)` runs this reducer, then pushes the state.
    ///
    /// Popping an element cancels its running effects; each element's cancellation ids are its
    /// own.
    public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
        _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
        action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
        @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> _StackReducer<Self, Destination>
    where Destination.State == DestinationState, Destination.Action == DestinationAction {
        _StackReducer(
            parent: self, destination: destination(), toStackState: toStackState,
            toStackAction: AnyCasePath(toStackAction),
            location: SourceLocation(fileID, filePath, line, column)
        )
    }
}

/// The reducer built by `forEach` over a ``StackState``.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
    let parent: Parent
    let destination: Destination
    let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>
    let toStackAction:
        AnyCasePath<
            Parent.Action, StackAction<Destination.State, Destination.Action>
        >
    let location: SourceLocation

    public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
        let idsBefore = state[keyPath: self.toStackState].ids
        var destinationEffects = Effect<Parent.Action>.none
        let parentEffects: Effect<Parent.Action>

        switch self.toStackAction.extract(from: action) {
        case let .element(id, destinationAction):
            if state[keyPath: self.toStackState][id: id] != nil {
                let embed = self.toStackAction
                destinationEffects = self.destination.reduce(
                    into: &state[keyPath: self.toStackState][id: id]!, action: destinationAction, in: self.navigationID(id),
                    embed: { embed.embed(.element(id: id, action: $0)) })
            } else {
                self.report("received an action for a missing element (id #\(id.generation))", action)
            }
            parentEffects = self.parent.reduce(into: &state, action: action)

        case let .popFrom(id):
            parentEffects = self.parent.reduce(into: &state, action: action)
            if state[keyPath: self.toStackState][id: id] != nil {
                state[keyPath: self.toStackState].pop(from: id)
            } else {
                self.report("received a pop for a missing element (id #\(id.generation))", action)
            }

        case let .push(id, element):
            parentEffects = self.parent.reduce(into: &state, action: action)
            if !state[keyPath: self.toStackState].push(element, id: id) {
                self.report("received a push with an id not above the top of the stack", action)
            }

        case nil:
            parentEffects = self.parent.reduce(into: &state, action: action)
        }

        let idsAfter = state[keyPath: self.toStackState].ids
        let poppedEffects: Effect<Parent.Action> =
            idsBefore == idsAfter
            ? .none
            : .merge(
                Set(idsBefore).subtracting(idsAfter).map {
                    .cancelNavigationContext(self.navigationID($0))
                }
            )
        return .merge(destinationEffects, parentEffects, poppedEffects)
    }

    private func navigationID(_ id: StackElementID) -> NavigationID {
        NavigationID(self.toStackState, id)
    }

    private func report(_ problem: String, _ action: Parent.Action) {
        self.location.report("A navigation stack \"forEach\" \(problem): \(action)")
    }
}
