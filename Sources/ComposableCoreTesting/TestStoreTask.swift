import ComposableCore

/// The effects started by one `TestStore.send`, for tests of long-running effects (timers,
/// streams) that must be cancelled or awaited explicitly.
public struct TestStoreTask: Hashable, Sendable {
    let tasks: [Task<Void, Never>]
    let timeout: Duration

    /// Cancels the effects and waits until they have stopped.
    public func cancel() async {
        for task in self.tasks { task.cancel() }
        for task in self.tasks { await task.value }
    }

    /// Waits for the effects to finish, reporting an issue if they outlast `timeout` (by default
    /// the store's).
    @MainActor
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let done = LockIsolated(false)
        // Not awaited directly: an effect that never ends must not hang the test.
        Task { [tasks] in
            for task in tasks { await task.value }
            done.setValue(true)
        }
        let finished = await poll(timeout: timeout ?? self.timeout) { done.value }
        if !finished {
            reportIssue(
                "Expected effects to finish, but they were still running after \(timeout ?? self.timeout).",
                fileID: fileID, filePath: filePath, line: line, column: column
            )
        }
    }

    /// Whether the effects were cancelled; `true` when the action started none.
    public var isCancelled: Bool {
        self.tasks.allSatisfy(\.isCancelled)
    }
}

/// Waits until `condition` holds, giving up after `timeout` of real time; returns whether it
/// held. Real time is right here: it bounds how long a broken test hangs, it is not test logic.
@MainActor
func poll(timeout: Duration, until condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        // Yield first so effects that are ready get to run; sleep only when they are all waiting.
        await Task.megaYield()
        if condition() { break }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}
