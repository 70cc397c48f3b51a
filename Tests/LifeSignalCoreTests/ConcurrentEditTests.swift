import Foundation
@_spi(Testing) import LifeSignalCore
import LifeSignalModels
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import Synchronization
import Testing

/// A profile edit is applied to the person's row as it is once the edit holds it, so what
/// committed meanwhile survives. On PostgreSQL an edit used to write every column back from a
/// read made before it waited: a check-in committed in between was undone (its deadline with
/// it). PostgreSQL only: set `LIFESIGNAL_TEST_POSTGRES_URL`; CI always does.
@Suite("A profile edit keeps what committed while it waited", .serialized, .timeLimit(.minutes(2)))
struct ConcurrentEditTests {
    @Test(.enabled(if: MultiEngineTests.postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL"))
    func aCheckInCommittedWhileAnEditWaitsIsKept() async throws {
        let world = try await MultiEngineTests.World(instances: 1)
        do {
            try await Self.run(world)
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }

    static func run(_ world: MultiEngineTests.World) async throws {
        let ada = try await world.signUp("Ada", phone: "+447700900301")
        #expect(ada.user.lastCheckInAt == nil)
        let store = world.core.storeForTesting
        let checkedInAt = Date(timeIntervalSince1970: (world.clock.now.timeIntervalSince1970 - 60).rounded(.down))
        let edit = Mutex<Task<User, any Error>?>(nil)

        // Another transaction holds Ada's row, as a check-in in flight does, while her edit
        // starts; it records the check-in and commits only once the edit waits for the row.
        try await store.write { tx in
            let locked = try #require(try await tx.people.lockEscalations([ada.user.id]).first)
            let task = Task { try await world.profiles.updateProfile(ada, ProfileChanges(emergencyNote: "Key under the mat")) }
            edit.withLock { $0 = task }
            // PostgreSQL is the only one who knows the edit is waiting: ask it (no pause between asks).
            try await withFailureDeadline(seconds: 20, "the edit never waited for Ada's row") {
                while try await Self.waitingOnLocks(store) == 0 { await Task.yield() }
            }
            try await Self.save(locked, tx: tx) { $0.lastCheckInAt = checkedInAt }
        }

        let edited = try await #require(edit.withLock { $0 }).value
        #expect(edited.emergencyNote == "Key under the mat")
        #expect(edited.lastCheckInAt == checkedInAt, "the edit wrote back the check-in it had read before waiting")
        let stored = try await world.profiles.profile(ada)
        #expect(stored.emergencyNote == "Key under the mat")
        #expect(stored.lastCheckInAt == checkedInAt)
    }

    @Test(.enabled(if: MultiEngineTests.postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL"))
    func anEditCommittedWhileACheckInWaitsIsKept() async throws {
        let world = try await MultiEngineTests.World(instances: 1)
        do {
            let ada = try await world.signUp("Ada", phone: "+447700900302")
            let store = world.core.storeForTesting
            let checkIn = Mutex<Task<CheckInResult, any Error>?>(nil)
            try await store.write { tx in
                let locked = try #require(try await tx.people.lockEscalations([ada.user.id]).first)
                let task = Task { try await world.checkIns.checkIn(ada, id: CheckInID(UUID()), clientAt: nil, source: .app) }
                checkIn.withLock { $0 = task }
                try await withFailureDeadline(seconds: 20, "the check-in never waited for Ada's row") {
                    while try await Self.waitingOnLocks(store) == 0 { await Task.yield() }
                }
                try await Self.save(locked, tx: tx) { $0.emergencyNote = "Key under the mat" }
            }
            let result = try await #require(checkIn.withLock { $0 }).value
            #expect(!result.duplicate)
            let stored = try await world.profiles.profile(ada)
            #expect(stored.emergencyNote == "Key under the mat", "the check-in wrote back the note it had read before waiting")
            #expect(stored.lastCheckInAt == world.clock.now)
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }

    /// Writes the locked row back with `change` made, as the service's own writes do.
    static func save(_ locked: EscalationState, tx: StoreTransaction, _ change: (inout User) -> Void) async throws {
        var user = locked.user
        change(&user)
        try await tx.people.update(user, deadline: locked.deadline, escalationStep: locked.step, nextActionAt: locked.nextActionAt)
    }

    /// Backends of this database waiting for a lock (only PostgreSQL can say).
    static func waitingOnLocks(_ store: Store) async throws -> Int {
        try await store.rawDatabase.read { db in
            try await db.query(
                "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'", []
            ).first?.int("n") ?? 0
        }
    }
}
