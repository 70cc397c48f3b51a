import Foundation
import LifeSignalStore
import Synchronization

/// What this instance last saw of its peers on the shared database, for `/health`: how many
/// runs are alive (itself included) and which went silent. Written by `PeerWatchService`;
/// nil until its first look (and always on SQLite, where no watch runs: one file, one server).
public final class PeerWatch: Sendable {
    private let current = Mutex<PeerStatus?>(nil)

    public init() {}

    public var status: PeerStatus? { current.withLock { $0 } }

    func publish(_ status: PeerStatus) { current.withLock { $0 = status } }
}

/// The peers section of `/health`.
public struct PeerStatus: Sendable, Hashable, Codable {
    /// This run's id (`<instance id>#<boot id>`, its delivery-lease owner).
    public var instance: String
    /// Runs heard from within the silence limit, this one included.
    public var live: Int
    /// Runs silent for longer than the limit (dead, or cut off from the database), until forgotten.
    public var missing: [MissingPeer]
    /// Whether this instance may declare peers dead yet (see `InstanceLiveness.mayJudge`).
    public var judging: Bool
    /// Seconds since this instance's own heartbeat last went through (nil: never).
    public var secondsSinceOwnHeartbeat: Int?
}

/// A peer that stopped writing its heartbeat.
public struct MissingPeer: Sendable, Hashable, Codable {
    public var id: String
    public var instanceID: String
    public var name: String
    public var silentSeconds: Int
    /// Whether its deliveries were taken over (by this instance or another).
    public var takenOver: Bool
}
