import Synchronization

/// How many transactions a store has open right now (reads and writes): each holds a
/// connection (SQLite: the writer or one of the readers; PostgreSQL: one of the pool's), so
/// this is how much of the pool is in use. Sampled by `/metrics`.
final class StoreActivity: Sendable {
    private let open = Atomic<Int>(0)

    func begin() { open.add(1, ordering: .relaxed) }
    func end() { open.subtract(1, ordering: .relaxed) }
    var current: Int { open.load(ordering: .relaxed) }
}

extension Store {
    /// Transactions open right now on this store (reads and writes), for the pool gauge.
    public var transactionsInFlight: Int { activity.current }
}
