import Foundation
import LifeSignalLanguage
import LifeSignalModels
import Synchronization

/// Fans live events out to the streams of connected clients in this process, and through a
/// relay (PostgreSQL LISTEN/NOTIFY) to the other instances.
public final class EventHub: Sendable {
    /// Carries events between instances; `nil` with one instance.
    public struct Relay: Sendable {
        public var publish: @Sendable (_ event: LiveEvent, _ users: [UserID]) async -> Void
        public init(publish: @escaping @Sendable (_ event: LiveEvent, _ users: [UserID]) async -> Void) {
            self.publish = publish
        }
    }

    private let streams = Mutex<[UserID: [UUID: AsyncStream<LiveEvent>.Continuation]]>([:])
    private let relay = Mutex<Relay?>(nil)
    /// Set by `finishAll()` (the server is shutting down): no new stream stays open.
    private let finished = Mutex(false)

    public init() {}

    public func setRelay(_ newRelay: Relay?) { relay.withLock { $0 = newRelay } }

    /// The caller's stream within the configured cap, or a 429 fit to show.
    public func subscribe(_ userID: UserID, configuration: ServiceConfiguration) throws -> AsyncStream<LiveEvent> {
        try subscription(userID, configuration: configuration).events
    }

    /// `subscribe`, with a way to end this one stream (a server's graceful shutdown).
    public func subscription(
        _ userID: UserID, configuration: ServiceConfiguration
    ) throws -> (events: AsyncStream<LiveEvent>, end: @Sendable () -> Void) {
        guard let subscription = subscription(userID, limit: configuration.streamsPerUser) else {
            throw ServiceError(
                .rateLimited, code: .tooManyStreams,
                Said("error.tooManyStreams"), retryAfter: 30)
        }
        return subscription
    }

    /// A stream of the user's events and a way to end it, or nil when they already hold
    /// `limit` open streams (so one account cannot hold the server's memory open with
    /// thousands of them).
    func subscription(_ userID: UserID, limit: Int) -> (events: AsyncStream<LiveEvent>, end: @Sendable () -> Void)? {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(256))
        let end: @Sendable () -> Void = { continuation.finish() }
        let key = UUID()
        if finished.withLock({ $0 }) {
            continuation.finish()
            return (stream, end)
        }
        let added = streams.withLock { all -> Bool in
            guard (all[userID]?.count ?? 0) < limit else { return false }
            all[userID, default: [:]][key] = continuation
            return true
        }
        guard added else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in
            self?.streams.withLock { all in
                all[userID]?[key] = nil
                if all[userID]?.isEmpty == true { all[userID] = nil }
            }
        }
        return (stream, end)
    }

    public func subscriberCount(_ userID: UserID) -> Int { streams.withLock { $0[userID]?.count ?? 0 } }

    /// Delivers to local listeners and hands the event to the relay for the other instances.
    public func publish(_ event: LiveEvent, to users: [UserID]) async {
        deliverLocally(event, to: users)
        if let relay = relay.withLock({ $0 }) { await relay.publish(event, users) }
    }

    /// Sends every open stream in this process a keep-alive (see `LiveEvent.keepAlive`): one
    /// timer for all of them, instead of a task per stream.
    public func keepAliveAll() {
        let all = streams.withLock { $0.values.flatMap(\.values) }
        for continuation in all { continuation.yield(.keepAlive) }
    }

    /// Ends every open stream, and every one opened later (graceful shutdown: an open stream
    /// never holds a restart).
    public func finishAll() {
        finished.withLock { $0 = true }
        let all = streams.withLock { $0.values.flatMap(\.values) }
        for continuation in all { continuation.finish() }
    }

    /// Delivers an event that arrived from another instance.
    public func deliverLocally(_ event: LiveEvent, to users: [UserID]) {
        let targets = streams.withLock { all in users.flatMap { all[$0].map { Array($0.values) } ?? [] } }
        for continuation in targets { continuation.yield(event) }
    }
}
