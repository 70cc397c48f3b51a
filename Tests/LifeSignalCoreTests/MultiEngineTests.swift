import Foundation
@_spi(Testing) import LifeSignalCore
import LifeSignalDelivery
import LifeSignalModels
@_spi(Testing) import LifeSignalStore
import LifeSignalTestSupport
import Synchronization
import Testing

/// Several engine instances and delivery workers on one PostgreSQL database: every step is
/// done exactly once, and the work of an instance that died is finished by the others once
/// its lease expires. PostgreSQL only: set `LIFESIGNAL_TEST_POSTGRES_URL`
/// (`eval "$(scripts/postgres.sh start)"`); CI always does.
@Suite("Several engines on one PostgreSQL database", .serialized, .timeLimit(.minutes(5)))
struct MultiEngineTests {
    static var postgresURL: String? { TestBackend.postgresURL }

    /// One server per "instance", all on one fresh PostgreSQL database and one clock
    /// (`TestWorld.instances`); the use cases run on the first.
    final class World: Sendable, CoreUseCases {
        let worlds: [TestWorld]
        private let drop: @Sendable () async -> Void

        init(instances: Int) async throws {
            (worlds, drop) = try await TestWorld.instances(instances)
        }

        func close() async { await drop() }

        var services: [ServiceCore] { worlds.map(\.core) }
        var core: ServiceCore { worlds[0].core }
        var clock: ManualClock { worlds[0].clock }

        func signUp(_ first: String, phone: String) async throws -> Caller {
            try await worlds[0].signUp(first, phone: phone)
        }

        /// `count` people on an 8-hour rhythm who all checked in at the start, each watched
        /// over by the same two responders.
        func burst(_ count: Int) async throws -> (dependents: [Caller], responders: [Caller]) {
            var responders: [Caller] = []
            for (name, phone) in [("Rita", "+447700900001"), ("Sam", "+447700900002")] {
                // Their own rhythm is daily, so nothing of theirs falls due during the test.
                var responder = try await signUp(name, phone: phone)
                responder.user = try await profiles.updateProfile(responder, ProfileChanges(schedule: .interval(seconds: 24 * 3600)))
                _ = try await checkIns.checkIn(responder, id: CheckInID(UUID()), clientAt: nil, source: .app)
                responders.append(responder)
            }
            var dependents: [Caller] = []
            for i in 0..<count {
                var person = try await signUp(letterName(i), phone: "+4477009\(String(format: "%05d", 10_000 + i))")
                person.user = try await profiles.updateProfile(person, ProfileChanges(schedule: .interval(seconds: 8 * 3600)))
                for responder in responders {
                    let request = try await contacts.addContact(person, code: responder.user.contactCode, roles: .responder)
                    _ = try await contacts.acceptContactRequest(responder, id: request.id, roles: request.roles)
                }
                _ = try await checkIns.checkIn(person, id: CheckInID(UUID()), clientAt: nil, source: .app)
                dependents.append(person)
            }
            return (dependents, responders)
        }

        /// Notifications of the engine's kinds, counted by (recipient, subject, type).
        func stepCounts() async throws -> [String: Int] {
            let rows = try await core.storeForTesting.read { tx in
                try await tx.executor.query(
                    """
                    SELECT recipient_id, subject_user_id, type, COUNT(*) AS n FROM notifications
                    WHERE type IN ('reminder', 'non_responsive', 'incident_opened')
                    GROUP BY recipient_id, subject_user_id, type
                    """, [])
            }
            var counts: [String: Int] = [:]
            for row in rows {
                let key = "\(try row.string("recipient_id"))|\((try? row.string("subject_user_id")) ?? "-")|\(try row.string("type"))"
                counts[key] = try row.int("n")
            }
            return counts
        }

        func incidentCounts() async throws -> [String: Int] {
            let rows = try await core.storeForTesting.read { tx in
                try await tx.executor.query("SELECT user_id, COUNT(*) AS n FROM incidents GROUP BY user_id", [])
            }
            var counts: [String: Int] = [:]
            for row in rows { counts[try row.string("user_id")] = try row.int("n") }
            return counts
        }
    }

    /// Runs one pass of every engine at the same time.
    static func passes(_ engines: [EscalationEngine]) async throws -> [EnginePass] {
        try await withThrowingTaskGroup(of: EnginePass.self) { group in
            for engine in engines { group.addTask { try await engine.runPass() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    static func sum(_ passes: [EnginePass], _ key: KeyPath<EnginePass, Int>) -> Int {
        passes.reduce(0) { $0 + $1[keyPath: key] }
    }

    @Test(.enabled(if: postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")"))
    func threeEnginesDoEachStepExactlyOnce() async throws {
        let world = try await World(instances: 3)
        do {
            let count = 60
            let (dependents, responders) = try await world.burst(count)
            var engines = world.services.enumerated().map { EscalationEngine(core: $1, instance: "engine-\($0)") }
            // Small batches so that the three really share the burst.
            for i in engines.indices { engines[i].batchSize = 7 }
            let t = TestWorld.start

            // Each point of the plan: everyone is due at once; passes run until nothing is left.
            var totals: [String: Int] = [:]
            for (offset, step) in [(8 * 3600 - 1800, "reminders"), (8 * 3600, "lastCalls"), (8 * 3600 + 600, "incidentsOpened")] {
                world.clock.set(t.addingTimeInterval(TimeInterval(offset)))
                var done = 0
                for _ in 0..<30 {
                    let round = try await Self.passes(engines)
                    done += Self.sum(round, \.total)
                    if Self.sum(round, \.total) == 0 { break }
                }
                totals[step] = done
            }
            #expect(totals == ["reminders": count, "lastCalls": count, "incidentsOpened": count])

            // One repeat of every incident, 15 minutes later.
            world.clock.advance(by: 900)
            var repeats = 0
            for _ in 0..<30 {
                let round = try await Self.passes(engines)
                repeats += Self.sum(round, \.repeats)
                if Self.sum(round, \.total) == 0 { break }
            }
            #expect(repeats == count)

            let incidents = try await world.incidentCounts()
            #expect(incidents.count == count)
            #expect(incidents.values.allSatisfy { $0 == 1 })

            let steps = try await world.stepCounts()
            for person in dependents {
                let id = person.user.id.description
                #expect(steps["\(id)|\(id)|reminder"] == 1, "reminder for \(id)")
                #expect(steps["\(id)|\(id)|non_responsive"] == 1, "last call for \(id)")
                for responder in responders {
                    // The opening plus the one repeat: each step exactly once.
                    #expect(steps["\(responder.user.id)|\(id)|incident_opened"] == 2, "incident steps for \(id)")
                }
            }
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }

    @Test(.enabled(if: postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")"))
    func othersFinishTheWorkOfADeadInstanceAfterItsLeaseExpires() async throws {
        let world = try await World(instances: 3)
        do {
            let count = 12
            let (dependents, _) = try await world.burst(count)
            let t = TestWorld.start
            world.clock.set(t.addingTimeInterval(8 * 3600 - 1800))

            // The dead instance leases the whole burst, then never processes it.
            let now = world.clock.now
            let lease: TimeInterval = 60
            let claimed = try await world.services[0].storeForTesting.write { tx in
                try await tx.engine.claimDueUsers(now: now, limit: 1000, owner: "dead", leaseUntil: now.addingTimeInterval(lease))
            }
            #expect(claimed.count == count)

            let survivors = world.services.dropFirst().enumerated().map { EscalationEngine(core: $1, instance: "alive-\($0)") }
            // While the lease holds, the others leave that work alone.
            let during = try await Self.passes(survivors)
            #expect(Self.sum(during, \.total) == 0)
            world.clock.advance(by: lease - 1)
            let justBefore = try await Self.passes(survivors)
            #expect(Self.sum(justBefore, \.total) == 0)

            // Once it expires they take it over, and do it once.
            world.clock.advance(by: 2)
            var reminders = 0
            for _ in 0..<10 {
                let round = try await Self.passes(survivors)
                reminders += Self.sum(round, \.reminders)
                if Self.sum(round, \.total) == 0 { break }
            }
            #expect(reminders == count)
            let steps = try await world.stepCounts()
            for person in dependents {
                let id = person.user.id.description
                #expect(steps["\(id)|\(id)|reminder"] == 1)
            }
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }

    @Test(.enabled(if: postgresURL != nil, "PostgreSQL only: set LIFESIGNAL_TEST_POSTGRES_URL (eval \"$(scripts/postgres.sh start)\")"))
    func outboxWorkersNeverClaimTheSameDeliveryTwice() async throws {
        let world = try await World(instances: 3)
        do {
            let count = 20
            _ = try await world.burst(count)
            // Reminders, last calls and incident openings fill the outbox.
            let engine = EscalationEngine(core: world.core, instance: "engine")
            for offset in [8 * 3600 - 1800, 8 * 3600, 8 * 3600 + 600] {
                world.clock.set(TestWorld.start.addingTimeInterval(TimeInterval(offset)))
                try await engine.runUntilIdle()
            }
            let due = try await world.core.storeForTesting.read { tx in
                try await tx.executor.query("SELECT id FROM deliveries WHERE next_attempt_at IS NOT NULL", [])
            }.count
            #expect(due >= count * 3)

            let outboxes = world.services.map { StoreOutbox(core: $0) }
            let now = world.clock.now
            let claims = try await withThrowingTaskGroup(of: [DeliveryID].self) { group in
                for (i, outbox) in outboxes.enumerated() {
                    group.addTask {
                        var mine: [DeliveryID] = []
                        while true {
                            let batch = try await outbox.claimDue(
                                now: now, limit: 5, owner: "worker-\(i)", leaseUntil: now.addingTimeInterval(300))
                            if batch.isEmpty { return mine }
                            mine += batch.map(\.message.deliveryID)
                        }
                    }
                }
                return try await group.reduce(into: [[DeliveryID]]()) { $0.append($1) }
            }
            let all = claims.flatMap { $0 }
            #expect(all.count == due)
            #expect(Set(all).count == all.count, "a delivery was claimed twice")
            #expect(claims.filter { !$0.isEmpty }.count >= 2, "the workers shared the outbox")
        } catch {
            await world.close()
            throw error
        }
        await world.close()
    }

}

/// Names may hold letters only: person 0 is "Paa", 1 "Pab"…
func letterName(_ i: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return "P" + String(letters[(i / 26) % 26]) + String(letters[i % 26])
}
