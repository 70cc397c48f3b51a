import Synchronization

/// A counting semaphore for async code: waiters queue in FIFO order and never block a thread.
final class AsyncSemaphore: Sendable {
    private struct State {
        var permits: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(permits: Int) { state = Mutex(State(permits: permits)) }

    func wait() async {
        // Fast path without allocating a continuation.
        let acquired = state.withLock { s -> Bool in
            guard s.permits > 0 else { return false }
            s.permits -= 1
            return true
        }
        if acquired { return }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { s -> Bool in
                if s.permits > 0 {
                    s.permits -= 1
                    return true
                }
                s.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func signal() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.permits += 1
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }

    func withPermit<T>(_ body: () async throws -> T) async rethrows -> T {
        await wait()
        defer { signal() }
        return try await body()
    }
}
