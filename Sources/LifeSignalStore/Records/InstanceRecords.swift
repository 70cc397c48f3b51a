import Foundation

/// One run of a server instance, as its heartbeats describe it.
public struct InstanceRecord: Sendable, Equatable {
    /// The run: its delivery-lease owner (`<instance id>#<boot id>`).
    public var id: String
    /// The instance's stable identity (`LIFESIGNAL_INSTANCE_ID`, or the one persisted for it).
    public var instanceID: String
    /// For people: host and process id.
    public var name: String
    public var startedAt: Date
    public var lastSeen: Date
    /// When a live peer found it silent and released its leases; nil while it is alive.
    public var takenOverAt: Date?

    public init(id: String, instanceID: String, name: String, startedAt: Date, lastSeen: Date, takenOverAt: Date? = nil) {
        self.id = id
        self.instanceID = instanceID
        self.name = name
        self.startedAt = startedAt
        self.lastSeen = lastSeen
        self.takenOverAt = takenOverAt
    }
}

/// What taking a dead peer's work over did.
public struct InstanceTakeover: Sendable, Equatable {
    /// The dead run.
    public var instance: InstanceRecord
    /// Its delivery leases released for the poll.
    public var deliveries: Int
    /// Of those, the ones whose send it had already started (see `sending_since`).
    public var inFlight: Int
}

extension StoreTransaction {
    /// The server's runs: their heartbeats, and a survivor taking a silent one's work over.
    public struct Instances: Sendable {
        let tx: StoreTransaction
    }

    public var instances: Instances { Instances(tx: self) }
}

extension StoreTransaction.Instances {
    /// This run is alive at `at`: its row is written, or its `last_seen` moved. A run that was
    /// declared dead and is heard from again (a long pause, not a death) is alive again.
    public func heartbeat(_ instance: InstanceRecord, at: Date) async throws {
        try await tx.db.execute(
            """
            INSERT INTO instances (id, instance_id, name, started_at, last_seen, taken_over_at) VALUES (?, ?, ?, ?, ?, NULL)
            ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen, taken_over_at = NULL
            """, instance.id, instance.instanceID, instance.name, instance.startedAt, at)
    }

    /// Every run that has a row: alive, silent, or taken over and not yet forgotten.
    public func all() async throws -> [InstanceRecord] {
        try await tx.db.query("SELECT * FROM instances ORDER BY started_at, id").map {
            InstanceRecord(
                id: try $0.string("id"), instanceID: try $0.string("instance_id"), name: try $0.string("name"),
                startedAt: try $0.date("started_at"), lastSeen: try $0.date("last_seen"),
                takenOverAt: try $0.optionalDate("taken_over_at"))
        }
    }

    /// Takes a silent run's work over: when its last heartbeat is older than `silentBefore` and
    /// nobody took it over yet, marks it taken over at `at` and gives every delivery leased to
    /// it back to the poll, in this transaction. Nil when it was heard from meanwhile or another
    /// instance took it over first: on PostgreSQL the mark is one conditional UPDATE, so of two
    /// survivors noticing at once the second waits on the row and then finds it marked, and the
    /// leases are released once, by the first. (Releasing them twice would do no harm either:
    /// the release is conditioned on the dead owner, and a delivery a survivor claimed since is
    /// leased to that survivor.)
    public func takeOver(_ id: String, silentBefore: Date, at: Date) async throws -> InstanceTakeover? {
        guard
            let row = try await tx.db.queryFirst(
                """
                UPDATE instances SET taken_over_at = ? WHERE id = ? AND taken_over_at IS NULL AND last_seen < ?
                RETURNING *
                """, at, id, silentBefore)
        else { return nil }
        let instance = InstanceRecord(
            id: try row.string("id"), instanceID: try row.string("instance_id"), name: try row.string("name"),
            startedAt: try row.date("started_at"), lastSeen: try row.date("last_seen"), takenOverAt: at)
        let inFlight =
            try await tx.db.queryFirst(
                "SELECT COUNT(*) AS n FROM deliveries WHERE lease_owner = ? AND sending_since IS NOT NULL", id)?.int("n") ?? 0
        let released = try await tx.db.execute(
            "UPDATE deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?", id)
        return InstanceTakeover(instance: instance, deliveries: released, inFlight: inFlight)
    }

    /// A run that stopped cleanly (it gave its leases back): its row goes.
    public func remove(_ id: String) async throws {
        try await tx.db.execute("DELETE FROM instances WHERE id = ?", id)
    }

    /// Forgets runs taken over whose last heartbeat is older than `before`.
    @discardableResult
    public func forget(takenOverAndSilentBefore before: Date) async throws -> Int {
        try await tx.db.execute("DELETE FROM instances WHERE taken_over_at IS NOT NULL AND last_seen < ?", before)
    }
}
