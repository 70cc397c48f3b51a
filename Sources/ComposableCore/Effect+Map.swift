extension Effect {
    /// Transforms every action the effect sends; this is how child effects become parent
    /// effects in `Scope`, `ifLet` and `forEach`.
    public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
        switch self.node {
        case .none:
            return .none
        case let .send(action):
            return .send(transform(action.value))
        case let .run(priority, operation):
            return Effect<T>(
                node: .run(priority: priority) { send in
                    await operation(Send { action in send(transform(action)) })
                }
            )
        case let .cancel(id):
            return Effect<T>(node: .cancel(id: id))
        case let .cancellable(id, cancelInFlight, effect):
            return Effect<T>(
                node: .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform))
            )
        case let .scoped(id, effect):
            return Effect<T>(node: .scoped(id: id, effect.map(transform)))
        case let .merge(effects):
            return Effect<T>(node: .merge(effects.map { $0.map(transform) }))
        case let .concatenate(effects):
            return Effect<T>(node: .concatenate(effects.map { $0.map(transform) }))
        }
    }
}
