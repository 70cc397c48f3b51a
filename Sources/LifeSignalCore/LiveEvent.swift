import Synchronization
import Foundation
import LifeSignalModels

/// What a connected client is told as it happens.
public enum LiveEvent: Sendable, Hashable, Codable {
    /// A new notification for the listener.
    case notification(Notification)
    /// The status of the listener or of one of their dependents changed.
    case status(CheckInStatus)
    /// The listener's contacts or pings changed: reload the lists.
    case contactsChanged
    /// Nothing happened: a comment every open stream gets now and then, so proxies keep it
    /// open and a stream whose client left is noticed (`EventHub.keepAliveAll`). Local only.
    case keepAlive

    public var name: String {
        switch self {
        case .notification: "notification"
        case .status: "status"
        case .contactsChanged: "contacts"
        case .keepAlive: "keep-alive"
        }
    }
}

/// What a transaction leaves to do once it has committed: live events to publish and
/// deliveries to hand to this process's outbox worker, metrics to count. Dropped, undone, when it rolls back.
final class PendingEvents: Sendable {
    private let items = Mutex<[(LiveEvent, [UserID])]>([])
    private let handoffs = Mutex<[DeliveryHandoff.Item]>([])
    private let counts = Mutex<[LifeSignalMetrics.Event]>([])

    /// Counted in the metrics once the transaction committed (a rolled-back step is not counted).
    func count(_ event: LifeSignalMetrics.Event) {
        counts.withLock { $0.append(event) }
    }

    func drainCounts() -> [LifeSignalMetrics.Event] {
        counts.withLock { counts in
            defer { counts.removeAll() }
            return counts
        }
    }

    func add(_ event: LiveEvent, to users: [UserID]) {
        guard !users.isEmpty else { return }
        items.withLock { $0.append((event, users)) }
    }

    func handOver(_ deliveries: [DeliveryHandoff.Item]) {
        guard !deliveries.isEmpty else { return }
        handoffs.withLock { $0.append(contentsOf: deliveries) }
    }

    func drain() -> [(LiveEvent, [UserID])] {
        items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }

    func drainHandoffs() -> [DeliveryHandoff.Item] {
        handoffs.withLock { handoffs in
            defer { handoffs.removeAll() }
            return handoffs
        }
    }
}

/// What changes as it happens: the caller's new notifications and the live status of the
/// caller and of the people they watch over, streamed to every page and app they have open.
public struct LiveUpdates: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }

    /// One stream of the caller's live events, within `streamsPerUser` open at once (a 429 fit
    /// to show beyond it), and a way to end this one stream (a server's graceful shutdown).
    public func subscribe(_ caller: Caller) throws -> (events: AsyncStream<LiveEvent>, end: @Sendable () -> Void) {
        try core.events.subscription(caller.user.id, configuration: core.configuration)
    }

    /// The same stream held by a listener instead of a task (the server's handler of
    /// `GET /v1/events`), within the same limit; returns what removes it.
    public func listen(_ caller: Caller, with listener: any LiveListener) throws -> @Sendable () -> Void {
        try core.events.register(listener, for: caller.user.id, configuration: core.configuration)
    }
}
