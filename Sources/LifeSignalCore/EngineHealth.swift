import Foundation
import LifeSignalStore

/// Whether alerting is alive: the newest engine heartbeat must be recent.
public struct EngineHealth: Sendable, Hashable, Codable {
    public var healthy: Bool
    public var lastPassAt: Date?
    public var secondsSinceLastPass: Int?
    public var instances: Int
}

extension LifeSignalService {
    /// Unhealthy when no engine has finished a pass within `staleAfter` seconds.
    public func engineHealth(staleAfter: TimeInterval = 30) async -> EngineHealth {
        guard let beats = try? await store.read({ try await $0.heartbeats() }) else {
            return EngineHealth(healthy: false, lastPassAt: nil, secondsSinceLastPass: nil, instances: 0)
        }
        guard let newest = beats.map(\.lastPassAt).max() else {
            return EngineHealth(healthy: false, lastPassAt: nil, secondsSinceLastPass: nil, instances: 0)
        }
        let age = now.timeIntervalSince(newest)
        return EngineHealth(
            healthy: age <= staleAfter, lastPassAt: newest, secondsSinceLastPass: Int(age),
            instances: beats.filter { now.timeIntervalSince($0.lastPassAt) <= staleAfter }.count)
    }
}
