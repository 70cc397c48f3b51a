import Synchronization

/// Wakes whoever waits for work: ``signal()`` resumes every waiter, or, when nobody waits,
/// makes the next ``wait()`` return at once. A cancelled waiter returns too. Used where work
/// is handed to a worker in memory (the service's delivery handoff; test outboxes).
public final class WorkSignal: Sendable {
    private struct State {
        var pending = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
        /// Those in ``waitUntilWaitedOn()``.
        var watchers: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once signalled (at once if signalled since the last wait), or when the task is
    /// cancelled.
    public func wait() async {
        let id = state.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (now, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return (true, [])
                    }
                    state.waiters[id] = continuation
                    defer { state.watchers.removeAll() }
                    return (false, Array(state.watchers.values))
                }
                if now { continuation.resume() }
                for watcher in watchers { watcher.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns once a task waits in ``wait()`` for a signal that has not come (at once if one
    /// does now), or when this task is cancelled. For tests: they signal a waiter they know is
    /// parked instead of guessing how long parking takes.
    public func waitUntilWaitedOn() async {
        let id = state.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if !state.waiters.isEmpty || Task.isCancelled { return true }
                    state.watchers[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.watchers.removeValue(forKey: id) }?.resume()
        }
    }
}
