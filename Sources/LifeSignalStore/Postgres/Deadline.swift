import Synchronization

/// Runs `operation`, failing with `StoreError.unavailable` when it has not finished after
/// `timeout`. On timeout the operation is cancelled and abandoned, not awaited, so a server
/// that stopped answering cannot hold the caller.
func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Locked<CheckedContinuation<T, any Error>?>(nil)
    let work = Locked<Task<Void, Never>?>(nil)
    let timer = Locked<Task<Void, Never>?>(nil)
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            outcome.withLock { $0 = continuation }
            let workTask = Task {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                if let continuation = outcome.withLock({ $0.take() }) {
                    timer.withLock { $0 }?.cancel()
                    continuation.resume(with: result)
                }
            }
            work.withLock { $0 = workTask }
            let timerTask = Task {
                try? await Task.sleep(for: timeout)
                if let continuation = outcome.withLock({ $0.take() }) {
                    workTask.cancel()
                    continuation.resume(throwing: StoreError.unavailable("\(what) timed out after \(timeout)"))
                }
            }
            timer.withLock { $0 = timerTask }
        }
    } onCancel: {
        work.withLock { $0 }?.cancel()
        if let continuation = outcome.withLock({ $0.take() }) {
            timer.withLock { $0 }?.cancel()
            continuation.resume(throwing: CancellationError())
        }
    }
}

/// A value behind a lock, in a class so escaping closures can share it (`Mutex` cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R {
        try mutex.withLock { try body(&$0) }
    }
}
