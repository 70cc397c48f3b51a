import Foundation
import LifeSignalTestSupport
@testable import LifeSignalCore
import LifeSignalModels
import LifeSignalRules
@_spi(Testing) import LifeSignalStore
import Synchronization
import Testing

/// Two instances' watches on one store, on a wall clock the test moves: heartbeats, a peer
/// declared dead only after 30 s of silence and only by an instance heard from for as long,
/// its delivery leases released once, and what `/health` is told.
@Suite("Instances watching each other")
struct PeerWatchTests {
    final class WallClock: Sendable {
        private let time = Mutex(Date(milliseconds: 1_760_000_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    @Test func aSilentPeerIsTakenOverOnceAfterThirtySeconds() async throws {
        let world = try await TestWorld()
        let ada = try await world.signUp("Ada", phone: "+447700900500")
        let bob = try await world.signUp("Bob", phone: "+447700900501")
        try await world.link(responder: bob, dependent: ada)
        let clock = WallClock()
        func watch(_ id: String) -> PeerWatchService {
            PeerWatchService(
                core: world.core,
                instance: InstanceRecord(
                    id: id, instanceID: String(id.prefix { $0 != "#" }), name: id, startedAt: clock.now, lastSeen: clock.now),
                clock: { clock.now })
        }
        let (a, b) = (watch("a#1"), watch("b#1"))
        var (stateA, stateB) = (PeerWatchService.State(), PeerWatchService.State())

        // Both heartbeat; b's instance holds the alert's deliveries.
        _ = await a.look(&stateA)
        _ = await b.look(&stateB)
        _ = try await world.incidents.raiseAlert(ada)
        let held = try await world.store.write { tx in
            try await tx.executor.execute(
                "UPDATE deliveries SET lease_owner = ?, lease_until = ? WHERE status = 'queued'",
                ["b#1".sqlValue, world.core.now.addingTimeInterval(120).sqlValue])
        }
        #expect(held > 0)
        #expect(world.core.peers.status?.live == 2)

        // b goes quiet after 20 s; a keeps looking every 2 s and beating every 10 s.
        for _ in 0..<10 {
            clock.advance(2)
            _ = await a.look(&stateA)
            _ = await b.look(&stateB)
        }
        var takeovers: [InstanceTakeover] = []
        var declaredAfter: TimeInterval = 0
        while takeovers.isEmpty && declaredAfter < 60 {
            clock.advance(2)
            declaredAfter += 2
            takeovers = await a.look(&stateA)
            if declaredAfter <= 30 { #expect(takeovers.isEmpty, "declared dead after only \(declaredAfter) s of silence") }
        }
        #expect(takeovers.map(\.instance.id) == ["b#1"])
        #expect(takeovers.first?.deliveries == held)
        #expect(declaredAfter > 30 && declaredAfter <= 32 + InstanceLiveness.default.heartbeatSeconds)
        print("peer watch test: b silent for \(Int(declaredAfter)) s when taken over")

        // Released: nothing of b's is leased any more; once is enough.
        let leased = try await world.store.read { tx in
            try await tx.executor.queryFirst("SELECT COUNT(*) AS n FROM deliveries WHERE lease_owner = 'b#1'")?.int("n")
        }
        #expect(leased == 0)
        clock.advance(2)
        #expect(await a.look(&stateA).isEmpty)
        let status = try #require(world.core.peers.status)
        #expect(status.live == 1)
        #expect(status.missing.map(\.id) == ["b#1"])
        #expect(status.missing.first?.takenOver == true)
        #expect(status.judging)
    }

    /// A newly started instance (or one just back from a database outage) judges nobody until
    /// its own heartbeats have gone through for a whole silence window.
    @Test func anInstanceJudgesOnlyAfterAWindowOfItsOwnHeartbeats() async throws {
        let world = try await TestWorld()
        let clock = WallClock()
        let old = InstanceRecord(id: "old#1", instanceID: "old", name: "old", startedAt: clock.now, lastSeen: clock.now)
        try await world.store.write { try await $0.instances.heartbeat(old, at: clock.now) }
        clock.advance(600)
        let fresh = PeerWatchService(
            core: world.core,
            instance: InstanceRecord(id: "new#1", instanceID: "new", name: "new", startedAt: clock.now, lastSeen: clock.now),
            clock: { clock.now })
        var state = PeerWatchService.State()
        #expect(await fresh.look(&state).isEmpty)
        #expect(world.core.peers.status?.judging == false)
        #expect(world.core.peers.status?.missing.map(\.id) == ["old#1"], "silent peers are reported before they are judged")
        clock.advance(29)
        #expect(await fresh.look(&state).isEmpty)
        clock.advance(1)
        #expect(await fresh.look(&state).map(\.instance.id) == ["old#1"])
    }
}
