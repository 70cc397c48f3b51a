import Synchronization

/// Wakes whoever waits for work: ``signal()`` resumes every waiter, or, when nobody waits,
/// makes the next ``wait()`` return at once. A cancelled waiter returns too. Used where work
/// is handed to a worker in memory (the service's delivery handoff; test outboxes).
public final class WorkSignal: Sendable {
    private struct State {
        var pending = false
        var waiters = ParkedTasks()
        /// Those in ``waitUntilWaitedOn()``.
        var watchers = ParkedTasks()
    }

    private let state = Mutex(State())

    public init() {}

    public func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            return state.waiters.takeAll()
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once signalled (at once if signalled since the last wait), or when the task is
    /// cancelled.
    public func wait() async {
        let ticket = state.withLock { $0.waiters.ticket() }
        await waitParked { continuation in
            let (parked, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                if state.pending || Task.isCancelled {
                    state.pending = false
                    return (false, [])
                }
                state.waiters.park(continuation, ticket: ticket)
                return (true, state.watchers.takeAll())
            }
            for watcher in watchers { watcher.resume() }
            return parked
        } leave: {
            self.state.withLock { $0.waiters.leave(ticket) }
        }
    }

    /// Returns once a task waits in ``wait()`` for a signal that has not come (at once if one
    /// does now), or when this task is cancelled. For tests: they signal a waiter they know is
    /// parked instead of guessing how long parking takes.
    public func waitUntilWaitedOn() async {
        let ticket = state.withLock { $0.watchers.ticket() }
        await waitParked { continuation in
            state.withLock { state in
                if !state.waiters.isEmpty || Task.isCancelled { return false }
                state.watchers.park(continuation, ticket: ticket)
                return true
            }
        } leave: {
            self.state.withLock { $0.watchers.leave(ticket) }
        }
    }
}
