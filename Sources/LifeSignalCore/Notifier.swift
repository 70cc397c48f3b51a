import Foundation
import LifeSignalModels
import LifeSignalStore

/// What to tell one person.
struct NotificationDraft: Sendable {
    var recipient: UserID
    var kind: Notification.Kind
    var subject: UserID?
    var incident: IncidentID?
    var title: String
    var body: String
    /// Identifies the escalation step, so a retried or concurrent step notifies once.
    var stepKey: String?
}

extension LifeSignalService {
    /// Records a notification in the recipient's history, queues its deliveries in the
    /// outbox (same transaction), notes it on the timeline and streams it live.
    /// Returns nil when the step was already notified.
    @discardableResult
    func notify(_ draft: NotificationDraft, tx: StoreTransaction, events: PendingEvents) async throws -> Notification? {
        let notification = Notification(
            id: newID(), recipientID: draft.recipient, type: draft.kind, subjectUserID: draft.subject,
            incidentID: draft.incident, title: draft.title, body: draft.body, createdAt: now)
        guard try await tx.insertNotification(notification, stepKey: draft.stepKey) else { return nil }
        try await queueDeliveries(for: notification, tx: tx)
        try await tx.appendTimeline(
            draft.subject ?? draft.recipient, at: now, kind: "notification",
            summary: "\(draft.title) → \(try await displayName(draft.recipient, tx: tx))",
            detail: Detail.json(["notification": notification.id.description, "type": draft.kind.rawValue,
                                 "recipient": draft.recipient.description]))
        events.add(.notification(notification), to: [draft.recipient])
        return notification
    }

    /// Manual alerts and drills go out on every channel at once; everything else goes to the
    /// first channel and falls back down the list when a channel fails.
    func queueDeliveries(for notification: Notification, tx: StoreTransaction) async throws {
        let targets = try await deliveryTargets(for: notification, tx: tx)
        let everyChannel = notification.type == .manualAlert || notification.type == .drill
        for (rank, target) in targets.enumerated() where everyChannel || rank == 0 {
            try await tx.insertDelivery(
                Delivery(
                    id: newID(), notificationID: notification.id, recipientID: notification.recipientID,
                    channel: target.kind, address: target.address, status: .queued, createdAt: now, updatedAt: now),
                fallbackRank: everyChannel ? -1 : rank, dueAt: now)
        }
    }

    /// The recipient's channels that accept this kind of notification, in their order; the
    /// server's default channel to their phone when they registered none.
    func deliveryTargets(for notification: Notification, tx: StoreTransaction) async throws -> [(kind: ChannelKind, address: String)] {
        let channels = try await tx.channels(of: notification.recipientID).filter {
            notification.category == .alerts || notification.type == .drill || $0.categories.contains(notification.category)
        }
        if !channels.isEmpty { return channels.map { ($0.kind, $0.address) } }
        guard let recipient = try await tx.user(notification.recipientID) else { return [] }
        return [(configuration.defaultChannel, recipient.phone)]
    }

    func displayName(_ id: UserID, tx: StoreTransaction) async throws -> String {
        let user = try await tx.user(id)
        return user.map { $0.fullName.isEmpty ? $0.phone : $0.fullName } ?? "a deleted account"
    }
}

/// Builds the sorted-key JSON kept as machine-readable timeline detail.
enum Detail {
    static func json(_ fields: [String: String]) -> String {
        let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
