/// The effects started by one `Store.send`. Await ``finish()`` to wait for them, or
/// ``cancel()`` them, for example when a view disappears.
public struct StoreTask: Hashable, Sendable {
    let rawValue: Task<Void, Never>?

    init(tasks: [Task<Void, Never>]) {
        guard !tasks.isEmpty else {
            self.rawValue = nil
            return
        }
        self.rawValue = Task {
            await withTaskCancellationHandler {
                for task in tasks { await task.value }
            } onCancel: {
                for task in tasks { task.cancel() }
            }
        }
    }

    /// Cancels the effects.
    public func cancel() {
        self.rawValue?.cancel()
    }

    /// Waits for the effects to finish.
    public func finish() async {
        await self.rawValue?.value
    }

    /// Whether the task was cancelled; `true` when the action started no effects.
    public var isCancelled: Bool {
        self.rawValue?.isCancelled ?? true
    }
}
