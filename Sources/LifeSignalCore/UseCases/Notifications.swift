import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// A person's notification history and the delivery attempts behind each notification.
public struct Notifications: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Notifications {
    /// The last 30 days, newest first, filtered by category and read state.
    public func notifications(
        _ caller: Caller, category: Notification.Category?, unreadOnly: Bool, before: Date?, limit: Int
    ) async throws -> NotificationPage {
        let limit = min(max(limit, 1), 100)
        let since = historyStart
        return try await core.read { tx in
            let items = try await tx.notifications.list(
                of: caller.user.id,
                NotificationQuery(category: category, unreadOnly: unreadOnly, before: before, limit: limit), since: since)
            return NotificationPage(
                items: items, unreadCount: try await tx.notifications.unreadCount(of: caller.user.id, since: since),
                nextBefore: items.count == limit ? items.last?.createdAt : nil)
        }
    }

    public func markNotificationRead(_ caller: Caller, id: NotificationID) async throws {
        let found = try await core.write { tx, _ in try await tx.notifications.markRead(id, of: caller.user.id, at: core.now) }
        guard found else { throw Self.notificationNotFound }
    }

    /// The start of the history she reads (the last 30 days by default).
    var historyStart: Date { core.now.addingTimeInterval(-Double(core.configuration.notificationHistoryDays) * 86400) }

    /// Marks read what her unread count counts; says how many.
    public func markAllNotificationsRead(_ caller: Caller) async throws -> Int {
        let since = historyStart
        return try await core.write { tx, _ in
            try await tx.notifications.markAllRead(of: caller.user.id, since: since, at: core.now)
        }
    }

    public func deleteNotification(_ caller: Caller, id: NotificationID) async throws {
        let found = try await core.write { tx, _ in try await tx.notifications.hide(id, of: caller.user.id, at: core.now) }
        guard found else { throw Self.notificationNotFound }
    }

    /// Every delivery attempt for one of the caller's notifications.
    public func deliveries(_ caller: Caller, notification id: NotificationID) async throws -> [Delivery] {
        try await core.read { tx in
            guard try await tx.notifications.notification(id)?.recipientID == caller.user.id else { throw Self.notificationNotFound }
            return try await tx.deliveries.list(notification: id)
        }
    }

    static let notificationNotFound = ServiceError(.notFound, code: .notificationNotFound, Said("error.notificationNotFound"))
}

extension Notifications {
    /// A provider's callback ("delivered", "failed") for a message it accepted earlier.
    ///
    /// A late failure counts as a failed attempt: it goes on the timeline and, while the alert
    /// it carried is still open and nobody is on it, the recipient's next channel is tried (or,
    /// with none left, people are told the responder could not be reached). An alert call
    /// nobody answered (`unanswered`: busy, no answer) is first placed again, up to
    /// ``DeliveryLifecycle/alertCallAttempts`` calls ``DeliveryLifecycle/alertCallRetryDelay`` apart; a call that failed otherwise
    /// (a wrong number) goes straight to the next channel.
    public func recordProviderStatus(
        providerID: String, status: Delivery.Status, reason: String?, unanswered: Bool = false
    ) async throws {
        try await core.write { tx, events in
            // Only an attempt the provider accepted can have an outcome: a delivery queued again
            // already had this call's "no answer" (a repeated callback changes nothing).
            guard let delivery = try await tx.deliveries.delivery(providerID: providerID),
                delivery.status == .sent || delivery.status == .delivered
            else { return }
            // Only move forward: a late "sent" never overwrites "delivered".
            let order: [Delivery.Status] = [.queued, .sent, .delivered, .failed]
            guard order.firstIndex(of: status)! > order.firstIndex(of: delivery.status)! else { return }
            guard let target = try await tx.deliveries.deliveriesToRecord([delivery.id])[delivery.id] else { return }
            var update = DeliveryUpdate(
                id: delivery.id, status: status, reason: reason, attempts: delivery.attempts, providerID: nil,
                nextAttemptAt: nil, at: core.now, expectedAttempts: delivery.attempts)
            // An alert that ended, or that someone is on, needs no more calls or fallbacks.
            let alert = target.notification.map { ServiceCore.isAlert($0.type) } ?? false
            var stillNeeded = true
            if alert, let id = target.notification?.incidentID {
                stillNeeded = try await tx.incidents.incident(id).map { $0.isOpen && $0.acknowledgedBy == nil } ?? false
            } else if alert {
                stillNeeded = false
            }
            var failed = false
            if status == .failed {
                switch DeliveryLifecycle.afterProviderFailure(
                    channel: delivery.channel, isAlert: alert, stillNeeded: stillNeeded, unanswered: unanswered,
                    attempts: delivery.attempts, now: core.now)
                {
                case .callAgain(let at):
                    update.status = .queued
                    update.nextAttemptAt = at
                case .failed: failed = true
                case .settled: break
                }
            }
            guard try await tx.deliveries.update([update]).contains(delivery.id) else { return }
            let owner = target.timelineOwner
            try await core.recordOutcome(
                of: target, update, failed: failed,
                callingAgain: update.status == .queued, onTimelineOf: owner, tx: tx, events: events)
            if let n = target.notification, ServiceCore.isAlert(n.type), let subject = n.subjectUserID, subject != n.recipientID {
                try await core.publishHelpProgress(of: [subject], tx: tx, events: events)
            }
        }
    }
}
