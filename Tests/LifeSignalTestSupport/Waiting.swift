import Foundation

// How LifeSignal's tests wait: on signals (a code recorded, a line a child process printed, a
// round the worker finished, a waiter parked), never by pausing and looking again. The only
// clock is the failure deadline below, shared by every test target.

public struct DeadlineExceeded: Error, CustomStringConvertible {
    public var description: String
}

/// Runs `body`, which waits for a signal, and fails with `what` when it has not returned within
/// `seconds`. The deadline is only a bound that fails the test: nothing waits on it for
/// something to happen. `body` must return when its task is cancelled.
public func withFailureDeadline<T: Sendable>(
    seconds: Int, _ what: @autoclosure () -> String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let result = try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await ContinuousClock().sleep(for: .seconds(seconds))  // the failure deadline
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
    guard let result else { throw DeadlineExceeded(description: "\(what()) (within \(seconds) s)") }
    return result
}
