/// Identifies a child's navigation context (a presented child, an enum case, a collection
/// element). Child effects are scoped to it and cancelled by it when the child goes away.
struct NavigationID: Hashable, @unchecked Sendable {
    // `@unchecked` because `AnyKeyPath` is not declared `Sendable`; key paths are immutable, so
    // sharing them across tasks is safe.
    let keyPath: AnyKeyPath
    let identity: AnyHashableSendable?

    init(_ keyPath: AnyKeyPath, _ identity: (some Hashable & Sendable)?) {
        self.keyPath = keyPath
        self.identity = identity.map(AnyHashableSendable.init)
    }
}

extension Effect {
    /// Runs child effects inside the navigation context `id`, so they can be cancelled as a
    /// group and their own cancellation ids cannot reach outside it.
    func inNavigationContext(_ id: NavigationID) -> Self {
        self.scoped(id: id).cancellable(id: id)
    }

    /// Cancels everything running in the navigation context `id`, if there is one.
    static func cancelNavigationContext(_ id: NavigationID?) -> Self {
        id.map { .cancel(id: $0) } ?? .none
    }
}

extension Reducer {
    /// Runs this reducer as a child for one of its actions: its effects come back as the
    /// parent's actions (`embed`) and run in the child's navigation context, so they end when
    /// the child goes away.
    func reduce<ParentAction>(
        into state: inout State, action: Action, in context: NavigationID,
        embed: @escaping @Sendable (Action) -> ParentAction
    ) -> Effect<ParentAction> {
        self.reduce(into: &state, action: action).map(embed).inNavigationContext(context)
    }
}
