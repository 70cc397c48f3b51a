/// Work a reducer asks the store to do after it has changed state: asynchronous jobs, more
/// actions, cancellation. Mirrors TCA's `Effect`.
///
/// An effect is a description, not a running task: the store interprets it. That keeps
/// reducers pure and lets `TestStore` see every action an effect produces.
public struct Effect<Action>: Sendable {
    // A tree the store walks: leaves do work, inner nodes say how the work is combined.
    @usableFromInline
    indirect enum Node: Sendable {
        case none
        /// Delivered synchronously, right after the current action, like TCA's `.send`.
        /// `Action` is not required to be `Sendable` (TCA does not require it either); the action
        /// is only ever handed to the main-actor store, so the unchecked wrapper does not leak it.
        case send(UncheckedSendable<Action>)
        case run(priority: TaskPriority?, operation: @Sendable (Send<Action>) async -> Void)
        case cancel(id: AnyHashableSendable)
        case cancellable(id: AnyHashableSendable, cancelInFlight: Bool, Effect)
        /// Child effects in a navigation context (a presented child, a collection element): their
        /// cancellation ids are private to that context, as with TCA's navigation ids.
        case scoped(id: AnyHashableSendable, Effect)
        case merge([Effect])
        case concatenate([Effect])
    }

    @usableFromInline
    let node: Node

    @usableFromInline
    init(node: Node) {
        self.node = node
    }
}

extension Effect {
    /// An effect that does nothing.
    public static var none: Self { Self(node: .none) }

    /// An effect that runs `operation` in a task and can send actions back through `send`.
    ///
    /// The dependencies in place where the effect is created (inside the reducer) are the ones
    /// the operation sees. A thrown error goes to `handler`; without a handler it is reported as
    /// an issue, except `CancellationError`, which is how cancelled effects end.
    public static func run(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
        catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        withEscapedDependencies { dependencies in
            Self(
                node: .run(priority: priority) { send in
                    await dependencies.yield {
                        do {
                            try await operation(send)
                        } catch is CancellationError {
                            return
                        } catch {
                            guard let handler else {
                                reportIssue(
                                    """
                                    An "Effect.run" threw an unhandled error: \(error)

                                    All errors thrown by "run" should be handled, either with a "catch:" handler \
                                    or with do/catch inside the operation.
                                    """,
                                    fileID: fileID, filePath: filePath, line: line, column: column
                                )
                                return
                            }
                            await handler(error, send)
                        }
                    }
                }
            )
        }
    }

    /// An effect that immediately sends `action` back into the store, right after the current
    /// action finishes reducing. Prefer calling shared logic directly over sending actions.
    public static func send(_ action: Action) -> Self {
        Self(node: .send(UncheckedSendable(action)))
    }

    /// Runs the effects at the same time. Synchronous actions keep their order.
    public static func merge(_ effects: Self...) -> Self {
        .merge(effects)
    }

    /// Runs the effects at the same time. Synchronous actions keep their order.
    public static func merge(_ effects: some Sequence<Self>) -> Self {
        let effects = effects.filter { if case .none = $0.node { false } else { true } }
        switch effects.count {
        case 0: return .none
        case 1: return effects[0]
        default: return Self(node: .merge(effects))
        }
    }

    /// Runs the effects one after another: each starts when the previous one has finished.
    public static func concatenate(_ effects: Self...) -> Self {
        .concatenate(effects)
    }

    /// Runs the effects one after another: each starts when the previous one has finished.
    public static func concatenate(_ effects: some Collection<Self>) -> Self {
        let effects = effects.filter { if case .none = $0.node { false } else { true } }
        switch effects.count {
        case 0: return .none
        case 1: return effects[0]
        default: return Self(node: .concatenate(effects))
        }
    }

    /// Merges this effect with another.
    public func merge(with other: Self) -> Self {
        .merge(self, other)
    }

    /// Runs `other` after this effect finishes.
    public func concatenate(with other: Self) -> Self {
        .concatenate(self, other)
    }

    /// Whether running this effect needs no task: it only sends actions or cancels.
    var isSynchronous: Bool {
        switch self.node {
        case .none, .send, .cancel: true
        case .run: false
        case let .cancellable(_, _, effect), let .scoped(_, effect): effect.isSynchronous
        case let .merge(effects), let .concatenate(effects): effects.allSatisfy(\.isSynchronous)
        }
    }
}
