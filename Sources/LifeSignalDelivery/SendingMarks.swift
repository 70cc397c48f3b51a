import Foundation
import Synchronization

/// Writes "this send is starting" for the sends a worker starts, before their provider is
/// called, coalescing the sends that start together into one store write: the first to arrive
/// writes for itself and everyone who arrives while it writes, then the next batch, and so on.
/// Each send waits only for the write that carries its own mark.
final class SendingMarks: Sendable {
    private let store: any OutboxStore
    private let owner: String
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var pending: [(item: OutboxItem, done: CheckedContinuation<Void, Never>)] = []
        var writing = false
    }

    init(store: any OutboxStore, owner: String, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.owner = owner
        self.now = now
    }

    /// Returns once `item`'s mark is stored (or its write failed).
    func mark(_ item: OutboxItem) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let leads = state.withLock { state -> Bool in
                state.pending.append((item, done))
                guard !state.writing else { return false }
                state.writing = true
                return true
            }
            // Not in the caller's task: a send cut off meanwhile must not cancel others' marks.
            if leads { Task { await self.writeAll() } }
        }
    }

    private func writeAll() async {
        while true {
            let batch = state.withLock { state in
                let batch = state.pending
                state.pending.removeAll()
                if batch.isEmpty { state.writing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            await store.markSending(batch.map(\.item), owner: owner, at: now())
            for entry in batch { entry.done.resume() }
        }
    }
}
