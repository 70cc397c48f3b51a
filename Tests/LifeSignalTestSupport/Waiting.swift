import Foundation
import Synchronization

// How LifeSignal's tests wait: on signals (a code recorded, a line a child process printed, a
// round the worker finished, a waiter parked), never by pausing and looking again. The only
// clock is the failure deadline below, shared by every test target.

public struct DeadlineExceeded: Error, CustomStringConvertible {
    public var description: String
}

/// Runs `body`, which waits for a signal, and fails with `what` when it has not returned within
/// `seconds`. The deadline is only a bound that fails the test: nothing waits on it for
/// something to happen. `body` is cancelled then; one that ignores cancellation is left behind
/// rather than awaited, so a hang is a failure and never a stalled run (a whole CI run once
/// waited an hour on a PostgreSQL statement that never answered).
public func withFailureDeadline<T: Sendable>(
    seconds: Int, _ what: @autoclosure () -> String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let waiting = Shared<CheckedContinuation<T?, any Error>?>(nil)
    let work = Shared<[Task<Void, Never>]>([])
    let result = try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T?, any Error>) in
            waiting.withLock { $0 = continuation }
            let body = Task {
                let result: Result<T?, any Error>
                do { result = .success(try await body()) } catch { result = .failure(error) }
                waiting.withLock { $0.take() }?.resume(with: result)
            }
            let deadline = Task {
                try? await ContinuousClock().sleep(for: .seconds(seconds))  // the failure deadline
                guard !Task.isCancelled else { return }
                body.cancel()
                waiting.withLock { $0.take() }?.resume(returning: nil)
            }
            work.withLock { $0 = [body, deadline] }
        }
    } onCancel: {
        for task in work.withLock({ $0 }) { task.cancel() }
        waiting.withLock { $0.take() }?.resume(throwing: CancellationError())
    }
    for task in work.withLock({ $0 }) { task.cancel() }
    guard let result else { throw DeadlineExceeded(description: "\(what()) (within \(seconds) s)") }
    return result
}

/// A value behind a lock that escaping closures can share (a `Mutex` itself cannot be captured).
public final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    public init(_ value: Value) { mutex = Mutex(value) }
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R { try mutex.withLock { try body(&$0) } }
}

/// Runs blocking work (a child process read to its end, `waitUntilExit`) on a thread of its own
/// and awaits its result, so it never holds one of the executor's threads: there are as many as
/// cores (two here), and a test blocked on one slows every other test in the process, or stops
/// them all when two block at once. (`waitUntilExit` on Linux can even block for good, see
/// `PrivatePostgres`; then only this thread waits, and the test's own limit ends the test.)
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread.detachNewThread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
    }
}

/// Runs a short command to completion and returns its output (read, and the exit awaited, on a
/// thread of its own).
@discardableResult
public func runCommand(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    try await onOwnThread {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
