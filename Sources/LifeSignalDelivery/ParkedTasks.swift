/// Tasks parked until something happens, each under a ticket of its own so that a cancelled
/// one leaves without waking the rest. Its owner keeps it in the state its `Mutex` guards and
/// resumes what it takes out only after letting go of the lock (``WorkSignal``, ``Latch``).
struct ParkedTasks: Sendable {
    private var parked: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextTicket: UInt64 = 0

    var isEmpty: Bool { parked.isEmpty }

    /// A ticket to park under, taken before parking so that cancellation can name it.
    mutating func ticket() -> UInt64 {
        defer { nextTicket &+= 1 }
        return nextTicket
    }

    mutating func park(_ continuation: CheckedContinuation<Void, Never>, ticket: UInt64) {
        parked[ticket] = continuation
    }

    /// The task parked under `ticket`, taken out; nil when it was woken already.
    mutating func leave(_ ticket: UInt64) -> CheckedContinuation<Void, Never>? {
        parked.removeValue(forKey: ticket)
    }

    /// Every parked task, taken out to be resumed.
    mutating func takeAll() -> [CheckedContinuation<Void, Never>] {
        defer { parked.removeAll() }
        return Array(parked.values)
    }
}

/// Waits until resumed. `park` (which takes the owner's lock) parks the task and returns true,
/// or returns false when there is nothing to wait for, and the task returns at once; a
/// cancelled task is taken out through `leave` and returns.
func waitParked(
    park: (CheckedContinuation<Void, Never>) -> Bool,
    leave: @escaping @Sendable () -> CheckedContinuation<Void, Never>?
) async {
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            if !park(continuation) { continuation.resume() }
        }
    } onCancel: {
        leave()?.resume()
    }
}
