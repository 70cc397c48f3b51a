import Foundation
import LifeSignalRules
import LifeSignalStore
import Logging
import ServiceLifecycle

/// Instances on one PostgreSQL database watch each other (see `InstanceLiveness`): this one
/// writes its heartbeat, and a peer found silent has its delivery leases released at once, so
/// its alerts are sent by the survivors within seconds instead of after the 120-second lease.
/// A clean stop removes this run's row (its worker gave everything back already).
///
/// Heartbeats run on the wall clock (`ServiceEnvironment.wallClock`), never on the product's
/// test clock: a test clock that jumps an hour must not make every peer look dead.
public struct PeerWatchService: Service {
    let core: ServiceCore
    /// This run: its id is its delivery-lease owner.
    public let instance: InstanceRecord
    public var liveness: InstanceLiveness
    /// The wall clock it judges silence by (`ServiceEnvironment.wallClock` unless a test gives one).
    public var clock: @Sendable () -> Date

    public init(
        core: ServiceCore, instance: InstanceRecord, liveness: InstanceLiveness = .default, clock: (@Sendable () -> Date)? = nil
    ) {
        self.core = core
        self.instance = instance
        self.liveness = liveness
        self.clock = clock ?? core.environment.wallClock
    }

    /// What the watch remembers between looks.
    public struct State: Sendable, Equatable {
        public var lastBeat: Date?
        /// Since when every heartbeat and look went through (nil: the last one failed).
        public var healthySince: Date?

        public init(lastBeat: Date? = nil, healthySince: Date? = nil) {
            self.lastBeat = lastBeat
            self.healthySince = healthySince
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var state = State()
            while !Task.isCancelled {
                _ = await look(&state)
                try? await Task.sleep(for: .milliseconds(Int(liveness.watchSeconds * 1000)))
            }
        }
        // A clean stop: not a missing peer. (Its worker gave back or recorded everything.)
        do { try await core.store.write { try await $0.instances.remove(instance.id) } } catch {
            core.logger.warning("could not remove this instance's heartbeat", metadata: ["error": "\(error)"])
        }
    }

    /// One look: the heartbeat when due, then the peers; silent ones are taken over once this
    /// instance may judge. Publishes what it saw for `/health` and the gauges. Returns the
    /// takeovers this look made.
    @discardableResult
    public func look(_ state: inout State) async -> [InstanceTakeover] {
        let now = Date(milliseconds: clock().milliseconds)
        var takeovers: [InstanceTakeover] = []
        do {
            if liveness.heartbeatDue(lastBeat: state.lastBeat, now: now) {
                try await core.store.write { try await $0.instances.heartbeat(instance, at: now) }
                state.lastBeat = now
                if state.healthySince == nil { state.healthySince = now }
            }
            var rows = try await core.store.read { try await $0.instances.all() }
            let judging = liveness.mayJudge(healthySince: state.healthySince, now: now)
            if judging {
                for (index, row) in rows.enumerated()
                where row.id != instance.id && row.takenOverAt == nil && liveness.isSilent(lastSeen: row.lastSeen, now: now) {
                    let silentBefore = liveness.silentBefore(now)
                    guard
                        let takeover = try await core.store.write({
                            try await $0.instances.takeOver(row.id, silentBefore: silentBefore, at: now)
                        })
                    else { continue }
                    rows[index].takenOverAt = now
                    takeovers.append(takeover)
                    core.metrics.instanceTakenOver(deliveries: takeover.deliveries)
                    core.logger.warning(
                        "peer instance silent: its deliveries are taken over",
                        metadata: [
                            "peer": "\(row.id)", "peer_name": "\(row.name)",
                            "silent_seconds": "\(Int(now.timeIntervalSince(row.lastSeen)))",
                            "deliveries": "\(takeover.deliveries)", "in_flight": "\(takeover.inFlight)",
                        ])
                }
                let forgotten = liveness.forgottenBefore(now)
                if rows.contains(where: { $0.takenOverAt != nil && $0.lastSeen < forgotten }) {
                    _ = try await core.store.write { try await $0.instances.forget(takenOverAndSilentBefore: forgotten) }
                    rows.removeAll { $0.takenOverAt != nil && $0.lastSeen < forgotten }
                }
            }
            publish(rows, judging: judging, state: state, now: now)
        } catch {
            if state.healthySince != nil {
                core.logger.warning("instance heartbeat failed", metadata: ["error": "\(error)"])
            }
            state.healthySince = nil
            state.lastBeat = nil
            publish(nil, judging: false, state: state, now: now)
        }
        return takeovers
    }

    private func publish(_ rows: [InstanceRecord]?, judging: Bool, state: State, now: Date) {
        let previous = core.peers.status
        let live = rows?.filter { $0.takenOverAt == nil && !liveness.isSilent(lastSeen: $0.lastSeen, now: now) }.count
        let missing =
            rows?.filter { $0.id != instance.id && ($0.takenOverAt != nil || liveness.isSilent(lastSeen: $0.lastSeen, now: now)) }
            .map {
                MissingPeer(
                    id: $0.id, instanceID: $0.instanceID, name: $0.name, silentSeconds: Int(now.timeIntervalSince($0.lastSeen)),
                    takenOver: $0.takenOverAt != nil)
            }
        let status = PeerStatus(
            instance: instance.id, live: live ?? previous?.live ?? 0, missing: missing ?? previous?.missing ?? [],
            judging: judging, secondsSinceOwnHeartbeat: state.lastBeat.map { Int(max(0, now.timeIntervalSince($0))) })
        core.peers.publish(status)
        if let live { core.metrics.instancesLive(live) }
    }
}
