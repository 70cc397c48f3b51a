import Synchronization

/// How an ``OutboxWorker`` is told to stop, in two stages.
///
/// ``stop()`` (SIGTERM): the worker claims nothing more and starts no new send; what it claimed
/// and had not started goes back to the outbox at once; the sends already handed to a provider
/// go on, and their real outcome is recorded. ``interruptSends()`` (the grace period is over):
/// the sends still in flight are cut off and recorded as interrupted by shutdown — not as a
/// provider failure, and without using up an attempt.
public final class WorkerShutdown: Sendable {
    private let stopping = Latch()
    private let interrupting = Latch()

    public init() {}

    /// Stop claiming and starting sends; let the ones in flight finish.
    public func stop() { stopping.open() }

    /// Cut off the sends still in flight (implies ``stop()``).
    public func interruptSends() {
        stopping.open()
        interrupting.open()
    }

    public var isStopping: Bool { stopping.isOpen }
    public var isInterrupting: Bool { interrupting.isOpen }

    /// Returns once ``stop()`` was called, or when the task is cancelled.
    public func stopped() async { await stopping.wait() }

    /// Returns once ``interruptSends()`` was called, or when the task is cancelled.
    public func interrupted() async { await interrupting.wait() }

    /// The reason recorded on a delivery whose send was cut off by shutdown.
    public static let interruptedReason = "Interrupted by shutdown; it will be sent again."
}

/// Opens once and stays open; waiters return when it opens or when their task is cancelled.
/// (Public for tests that hold a fake provider's sends until they say so.)
public final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters = ParkedTasks()
    }

    private let state = Mutex(State())

    public init() {}

    public var isOpen: Bool { state.withLock { $0.isOpen } }

    public func open() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.isOpen else { return [] }
            state.isOpen = true
            return state.waiters.takeAll()
        }
        for waiter in woken { waiter.resume() }
    }

    public func wait() async {
        let ticket = state.withLock { $0.waiters.ticket() }
        await waitParked { continuation in
            state.withLock { state in
                if state.isOpen || Task.isCancelled { return false }
                state.waiters.park(continuation, ticket: ticket)
                return true
            }
        } leave: {
            self.state.withLock { $0.waiters.leave(ticket) }
        }
    }
}
