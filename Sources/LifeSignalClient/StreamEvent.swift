import Foundation
import LifeSignalModels

/// One event of the live stream (`GET /v1/events`).
public enum StreamEvent: Hashable, Sendable {
    /// The status of the listener or of one of their dependents changed.
    case status(CheckInStatus)
    /// A new notification for the listener.
    case notification(LifeSignalModels.Notification)
    /// The listener's contacts or pings changed: reload the lists.
    case contactsChanged
}
