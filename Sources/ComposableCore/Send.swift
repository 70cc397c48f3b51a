/// Feeds actions from an effect back into the store. Call it like a function:
///
/// ```swift
/// return .run { send in
///   await send(.response(try await client.load()))
/// }
/// ```
///
/// Actions sent from a cancelled effect are dropped, so a cancelled request never reports back.
public struct Send<Action>: Sendable {
    @usableFromInline
    let send: @MainActor @Sendable (Action) -> Void

    /// Creates a `Send` that forwards to `send`.
    public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
        self.send = send
    }

    /// Sends an action back into the store, unless the sending effect has been cancelled.
    @MainActor
    public func callAsFunction(_ action: Action) {
        guard !Task.isCancelled else { return }
        self.send(action)
    }

    /// Sends an action back into the store; the same as calling `send` like a function.
    @MainActor
    public func send(_ action: Action) {
        self(action)
    }
}
