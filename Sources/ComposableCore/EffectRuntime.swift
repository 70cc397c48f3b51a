/// Interprets the effects a store's reducer returns: starts tasks, delivers synchronous
/// actions, and keeps the bookkeeping for cancellation and for `TestStore`'s "effects still
/// running" check.
///
/// Main-actor isolated like the store that owns it, so the bookkeeping needs no locks.
@MainActor
package final class EffectRuntime<Action> {
    /// Where actions sent asynchronously by effects go; the owning store installs it.
    package var send: @MainActor (Action) -> Void = { _ in }

    private var tasks: [Int: Task<Void, Never>] = [:]
    private var keysByTask: [Int: [CancelKey]] = [:]
    private var tasksByKey: [CancelKey: Set<Int>] = [:]
    private var nextTaskID = 0

    package init() {}

    /// Whether any effect task is still running (cancelled tasks count as finished).
    package var hasInFlightEffects: Bool { !self.tasks.isEmpty }

    /// Whether `task` (started by this runtime) is still running and not cancelled.
    package func isInFlight(_ task: Task<Void, Never>) -> Bool {
        self.tasks.values.contains(task)
    }

    /// How many effect tasks are still running.
    package var inFlightCount: Int { self.tasks.count }

    /// Starts `effect`. Actions it produces synchronously go to `emit`, so the store can
    /// process them right after the current action; returns the tasks it started.
    package func start(_ effect: Effect<Action>, emit: (Action) -> Void) -> [Task<Void, Never>] {
        var started: [Task<Void, Never>] = []
        self.start(effect, path: [], keys: [], emit: emit, started: &started)
        return started
    }

    /// Cancels every running effect; a store does this when it goes away.
    package func cancelAll() {
        for task in self.tasks.values { task.cancel() }
        self.tasks.removeAll()
        self.keysByTask.removeAll()
        self.tasksByKey.removeAll()
    }

    private func start(
        _ effect: Effect<Action>,
        path: [AnyHashableSendable],
        keys: [CancelKey],
        emit: (Action) -> Void,
        started: inout [Task<Void, Never>]
    ) {
        switch effect.node {
        case .none:
            return

        case let .send(action):
            emit(action.value)

        case let .cancel(id):
            self.cancel(CancelKey(path: path, id: id))

        case let .cancellable(id, cancelInFlight, effect):
            let key = CancelKey(path: path, id: id)
            if cancelInFlight { self.cancel(key) }
            self.start(effect, path: path, keys: keys + [key], emit: emit, started: &started)

        case let .scoped(id, effect):
            self.start(effect, path: path + [id], keys: keys, emit: emit, started: &started)

        case let .merge(effects):
            for effect in effects {
                self.start(effect, path: path, keys: keys, emit: emit, started: &started)
            }

        case let .run(priority, operation):
            started.append(self.spawn(priority: priority, keys: keys, operation: operation))

        case let .concatenate(effects):
            // Leading synchronous parts run now, so `.concatenate(.send(a), …)` delivers `a` in the
            // same turn as TCA does; the rest needs a task that waits for each part in turn.
            var remaining = effects[...]
            while let first = remaining.first, first.isSynchronous {
                self.start(first, path: path, keys: keys, emit: emit, started: &started)
                remaining.removeFirst()
            }
            guard !remaining.isEmpty else { return }
            let parts = Array(remaining)
            let task = self.spawn(priority: nil, keys: keys) { [weak self] _ in
                for part in parts {
                    guard !Task.isCancelled, let self else { return }
                    let tasks = await self.startFromEffect(part, path: path, keys: keys)
                    // Unstructured tasks do not inherit cancellation; pass it on by hand.
                    await withTaskCancellationHandler {
                        for task in tasks { await task.value }
                    } onCancel: {
                        for task in tasks { task.cancel() }
                    }
                }
            }
            started.append(task)
        }
    }

    /// Starts part of a concatenated effect; its synchronous actions go through the full send.
    private func startFromEffect(
        _ effect: Effect<Action>, path: [AnyHashableSendable], keys: [CancelKey]
    ) -> [Task<Void, Never>] {
        var started: [Task<Void, Never>] = []
        var buffered: [Action] = []
        // The outer keys come along so cancelling the concatenation ends its parts at once.
        self.start(effect, path: path, keys: keys, emit: { buffered.append($0) }, started: &started)
        for action in buffered where !Task.isCancelled { self.send(action) }
        return started
    }

    private func spawn(
        priority: TaskPriority?,
        keys: [CancelKey],
        operation: @escaping @Sendable (Send<Action>) async -> Void
    ) -> Task<Void, Never> {
        let id = self.nextTaskID
        self.nextTaskID += 1
        let send = Send<Action> { [weak self] action in self?.send(action) }
        // The task inherits the main actor; `operation` is nonisolated and hops off it.
        let task = Task(priority: priority) { [weak self] in
            await operation(send)
            self?.finished(id)
        }
        self.tasks[id] = task
        self.keysByTask[id] = keys
        for key in keys { self.tasksByKey[key, default: []].insert(id) }
        return task
    }

    private func finished(_ id: Int) {
        self.tasks[id] = nil
        for key in self.keysByTask.removeValue(forKey: id) ?? [] {
            self.tasksByKey[key]?.remove(id)
            if self.tasksByKey[key]?.isEmpty == true { self.tasksByKey[key] = nil }
        }
    }

    private func cancel(_ key: CancelKey) {
        // A cancelled task stops counting as in flight at once: `Send` drops anything it still
        // sends, and waiting for it to notice would make cancellation look asynchronous.
        for id in self.tasksByKey.removeValue(forKey: key) ?? [] {
            self.tasks[id]?.cancel()
            self.finished(id)
        }
    }
}

/// A cancellation id within its navigation context.
struct CancelKey: Hashable, Sendable {
    let path: [AnyHashableSendable]
    let id: AnyHashableSendable
}
