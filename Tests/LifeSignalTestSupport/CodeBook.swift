import Synchronization

/// The sign-in codes "sent" during a test, by phone number; a test can read one or wait for
/// one to be sent.
public final class CodeBook: Sendable {
    private struct State {
        var codes: [String: String] = [:]
        var waiters: [UInt64: (phone: String, continuation: CheckedContinuation<String, any Error>)] = [:]
        var next: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public func record(_ code: String, for phone: String) {
        let woken = state.withLock { state in
            state.codes[phone] = code
            let woken = state.waiters.filter { $0.value.phone == phone }
            for id in woken.keys { state.waiters.removeValue(forKey: id) }
            return woken.values.map(\.continuation)
        }
        for waiter in woken { waiter.resume(returning: code) }
    }

    /// The last code sent to `phone`, if any.
    public func code(for phone: String) -> String? { state.withLock { $0.codes[phone] } }

    /// The code sent to `phone`: at once if one was, else once one is. Throws
    /// `CancellationError` when the waiting task is cancelled.
    public func next(for phone: String) async throws -> String {
        let id = state.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                let now = state.withLock { state -> Result<String, any Error>? in
                    if let code = state.codes[phone] { return .success(code) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = (phone, continuation)
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
