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

    public var name: String {
        switch self {
        case .notification: "notification"
        case .status: "status"
        case .contactsChanged: "contacts"
        }
    }
}

/// Events gathered during a transaction and published only once it has committed.
final class PendingEvents: Sendable {
    private let items = Mutex<[(LiveEvent, [UserID])]>([])

    func add(_ event: LiveEvent, to users: [UserID]) {
        guard !users.isEmpty else { return }
        items.withLock { $0.append((event, users)) }
    }

    func drain() -> [(LiveEvent, [UserID])] {
        items.withLock { items in
            defer { items.removeAll() }
            return items
        }
    }
}
