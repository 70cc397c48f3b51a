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

    /// One open stream: an `AsyncStream` a task reads, or a listener the hub hands events to
    /// (the server's task-free `GET /v1/events`, see ``LiveListener``).
    enum Subscriber: Sendable {
        case stream(AsyncStream<LiveEvent>.Continuation)
        case listener(any LiveListener)
    }

    private let streams = Mutex<[UserID: [UUID: Subscriber]]>([:])
    private let relay = Mutex<Relay?>(nil)
    /// How events reach the listeners: set once by the server, which writes one encoded frame
    /// to many connections, batched per event loop.
    private let listenerDelivery = Mutex<(@Sendable (LiveEvent, [any LiveListener]) -> Void)?>(nil)
    /// Set by `finishAll()` (the server is shutting down): no new stream stays open.
    private let finished = Mutex(false)

    public init() {}

    public func setRelay(_ newRelay: Relay?) { relay.withLock { $0 = newRelay } }

    /// How the listeners get their events (see ``LiveListener``): called with each event and
    /// every listener it goes to, from whichever thread published it.
    public func setListenerDelivery(_ deliver: @escaping @Sendable (LiveEvent, [any LiveListener]) -> Void) {
        listenerDelivery.withLock { $0 = deliver }
    }

    /// Adds a listener for the user's events within the configured cap (a 429 fit to show
    /// beyond it, as for `subscription`), and returns what removes it (its connection closed).
    /// After `finishAll` the listener is told to end at once.
    public func register(
        _ listener: any LiveListener, for userID: UserID, configuration: ServiceConfiguration
    ) throws -> @Sendable () -> Void {
        let key = UUID()
        if finished.withLock({ $0 }) {
            listener.end()
            return {}
        }
        let added = streams.withLock { all -> Bool in
            guard (all[userID]?.count ?? 0) < configuration.streamsPerUser else { return false }
            all[userID, default: [:]][key] = .listener(listener)
            return true
        }
        guard added else {
            throw ServiceError(.rateLimited, code: .tooManyStreams, Said("error.tooManyStreams"), retryAfter: 30)
        }
        return { [weak self] in self?.remove(key, of: userID) }
    }

    private func remove(_ key: UUID, of userID: UserID) {
        streams.withLock { all in
            all[userID]?[key] = nil
            if all[userID]?.isEmpty == true { all[userID] = nil }
        }
    }

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
            all[userID, default: [:]][key] = .stream(continuation)
            return true
        }
        guard added else {
            continuation.finish()
            return nil
        }
        continuation.onTermination = { [weak self] _ in self?.remove(key, of: userID) }
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
        deliver(.keepAlive, to: streams.withLock { $0.values.flatMap(\.values) })
    }

    /// Ends every open stream, and every one opened later (graceful shutdown: an open stream
    /// never holds a restart).
    public func finishAll() {
        finished.withLock { $0 = true }
        let all = streams.withLock { $0.values.flatMap(\.values) }
        for subscriber in all {
            switch subscriber {
            case let .stream(continuation): continuation.finish()
            case let .listener(listener): listener.end()
            }
        }
    }

    /// Delivers an event that arrived from another instance.
    public func deliverLocally(_ event: LiveEvent, to users: [UserID]) {
        deliver(event, to: streams.withLock { all in users.flatMap { all[$0].map { Array($0.values) } ?? [] } })
    }

    private func deliver(_ event: LiveEvent, to subscribers: [Subscriber]) {
        var listeners: [any LiveListener] = []
        for subscriber in subscribers {
            switch subscriber {
            case let .stream(continuation): continuation.yield(event)
            case let .listener(listener): listeners.append(listener)
            }
        }
        if !listeners.isEmpty, let deliver = listenerDelivery.withLock({ $0 }) { deliver(event, listeners) }
    }
}

/// A live stream held without a task: the server's handler of `GET /v1/events` on one
/// connection. The hub hands its events to the delivery the server set
/// (``EventHub/setListenerDelivery(_:)``) and tells it when every stream must end.
public protocol LiveListener: AnyObject, Sendable {
    /// Ends the stream (graceful shutdown): what the client reads last, then the connection closes.
    func end()
}
