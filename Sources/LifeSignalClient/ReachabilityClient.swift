import Dependencies
import DependenciesMacros

/// Whether the device has a network path (iOS: NWPathMonitor). Features flush queued
/// check-ins (`CheckInClient.flushPending`) when it turns true.
@DependencyClient
public struct ReachabilityClient: Sendable {
    /// The current state, then every change.
    public var updates: @Sendable () -> AsyncStream<Bool> = { AsyncStream { $0.finish() } }
}

extension ReachabilityClient: TestDependencyKey {
    public static let testValue = ReachabilityClient()
    public static let previewValue = ReachabilityClient(updates: {
        AsyncStream { continuation in
            continuation.yield(true)
            continuation.finish()
        }
    })
}

extension DependencyValues {
    public var reachabilityClient: ReachabilityClient {
        get { self[ReachabilityClient.self] }
        set { self[ReachabilityClient.self] = newValue }
    }
}
