import ComposableCore
import Foundation

/// A store for tests that checks, step by step, how a feature's state changes and which
/// actions its effects send back. Mirrors TCA's `TestStore`, exhaustive by default:
///
/// ```swift
/// let store = TestStore(initialState: CheckInFeature.State()) {
///   CheckInFeature()
/// } withDependencies: {
///   $0.continuousClock = clock
/// }
/// await store.send(.checkInButtonTapped) { $0.isCheckingIn = true }
/// await store.receive(\.checkInResponse.success) { $0.isCheckingIn = false }
/// ```
///
/// In exhaustive mode every state change must be asserted, every received action must be
/// `receive`d in order, and no effect may still be running when the store goes away (or
/// after ``finish(timeout:fileID:filePath:line:column:)``). Failures are reported with a diff
/// through IssueReporting, so they show up under Swift Testing and XCTest alike.
@MainActor
public final class TestStore<State: Equatable, Action> {
    /// How strictly the store checks the test; ``Exhaustivity/on`` unless changed.
    public var exhaustivity: Exhaustivity = .on

    /// How long `receive` and `finish` wait for effects, in real time.
    public var timeout: Duration

    /// The dependencies the reducer and its effects run with; may be changed mid-test.
    public var dependencies: DependencyValues {
        get { self.core.dependencies }
        set { self.core.dependencies = newValue }
    }

    /// The current state of the feature.
    public var state: State { self.core.state }

    let core: StoreCore<State, Action>
    /// Actions sent by effects and not yet asserted, with the state right after each.
    var received: [(action: Action, state: State, tasks: [Task<Void, Never>])] = []
    /// The state after the last step the test has accounted for.
    var assertedState: State
    /// Where each step's effects came from, to point "still running" failures at the step.
    var origins: [(action: Action, tasks: [Task<Void, Never>], location: SourceLocation)] = []
    let location: SourceLocation
    /// Set while `send` runs the sent action, to capture the state right after it alone.
    private var sentStep: (state: State, tasks: [Task<Void, Never>])?

    /// Creates a test store for the reducer built by `reducer`, starting from `initialState`,
    /// with dependencies overridden by `prepareDependencies`.
    public init<R: Reducer<State, Action>>(
        initialState: @autoclosure () -> State,
        @ReducerBuilder<State, Action> reducer: () -> R,
        withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
        timeout: Duration = .seconds(1),
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let (state, reducer, dependencies) = withDependencies(prepareDependencies) {
            (initialState(), reducer(), DependencyValues._current)
        }
        self.core = StoreCore(initialState: state, reducer: reducer, dependencies: dependencies)
        self.assertedState = state
        self.timeout = timeout
        self.location = SourceLocation(fileID, filePath, line, column)
        markMainQueue()
        self.core.didReduce = { [unowned self] action, state, fromEffect, tasks in
            if fromEffect {
                self.received.append((action, state, tasks))
            } else {
                self.sentStep = (state, tasks)
            }
        }
    }

    // Not an `isolated deinit`: those run without task-locals, and the test context (Swift
    // Testing's current test, `withKnownIssue`) is task-local, so the end-of-test failures would
    // be lost. Test stores live on the main actor and are released there.
    nonisolated deinit {
        guard isOnMainQueue() else { return }
        MainActor.assumeIsolated {
            self.completed()
            self.core.effects.cancelAll()
        }
    }

    /// Sends an action and asserts how state changed: `update` receives the state before the
    /// action and must turn it into the state after it. Omit `update` if state must not change.
    @discardableResult
    public func send(
        _ action: Action,
        assert update: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> TestStoreTask {
        let location = SourceLocation(fileID, filePath, line, column)
        if !self.received.isEmpty {
            if self.exhaustivity == .on {
                location.report(
                    """
                    Must handle \(self.received.count) received \
                    action\(self.received.count == 1 ? "" : "s") before sending an action: …

                    Unhandled actions:
                    \(self.received.map { String(customDumping: $0.action) }.joined(separator: "\n"))
                    """
                )
            }
            self.assertedState = self.received.last!.state
            self.received.removeAll()
        }
        let before = self.core.state
        self.sentStep = nil
        self.core.send(action)
        let step = self.sentStep ?? (before, [])
        self.sentStep = nil
        self.origins.append((action, step.tasks, location))
        self.assertState(from: before, to: step.state, update, location)
        // Give the effects just started a chance to reach their first suspension point (a clock
        // sleep, a request), so a following `clock.advance` finds them waiting.
        await Task.megaYield()
        return TestStoreTask(tasks: step.tasks, timeout: self.timeout)
    }

    /// Asserts the current state without sending an action (most useful with
    /// ``Exhaustivity/off``).
    public func assert(
        _ update: (_ state: inout State) throws -> Void,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = SourceLocation(fileID, filePath, line, column)
        let current = self.received.last?.state ?? self.core.state
        withoutActuallyEscaping(update) { update in
            self.assertState(
                from: self.assertedState, to: current, update, location, requireChange: false
            )
        }
    }

    /// Waits for every effect to finish; reports an issue if some are still running after
    /// `timeout` (by default the store's).
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let timeout = timeout ?? self.timeout
        let finished = await poll(timeout: timeout) { !self.core.effects.hasInFlightEffects }
        if !finished {
            SourceLocation(fileID, filePath, line, column).report(
                """
                Expected effects to finish, but there are still effects in flight after \(timeout).
                """
            )
        }
    }

    /// The end-of-test checks of exhaustive mode: nothing left unreceived, nothing running.
    private func completed() {
        guard self.exhaustivity == .on else { return }
        if !self.received.isEmpty {
            self.location.report(
                """
                The store received \(self.received.count) unexpected \
                action\(self.received.count == 1 ? "" : "s") by the end of this test: …

                Unhandled actions:
                  \(self.received.map { String(customDumping: $0.action) }.joined(separator: "\n"))
                """
            )
        }
        var reported = Set<Task<Void, Never>>()
        for origin in self.origins {
            let running = origin.tasks.filter { self.core.effects.isInFlight($0) }
            guard !running.isEmpty else { continue }
            reported.formUnion(running)
            origin.location.report(
                """
                An effect returned for this action is still running. It must complete before the end \
                of the test. …

                Action: \(String(customDumping: origin.action))

                To fix, make sure the effect completes (advance the test clock, resolve the client), \
                cancel it by sending an action, or await "store.finish()" or "task.cancel()".
                """
            )
        }
        if self.core.effects.hasInFlightEffects, reported.isEmpty {
            self.location.report(
                "Effects started by received actions are still running at the end of this test."
            )
        }
    }
}

// The main actor runs on the main dispatch queue, which is not always the main thread (it is
// not under Swift Testing on Linux), so "are we on the main actor?" is asked of the queue.
private let mainQueueKey = DispatchSpecificKey<UInt8>()

@MainActor
private func markMainQueue() {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: 1)
}

private func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == 1
}

/// A test store for the reducer `R`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable
