import Foundation
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalStore

/// The durable outbox over the store, for the delivery workers. Recording an outcome
/// also writes it to the subject's timeline and, for a failed channel, queues the
/// recipient's next channel — all in one transaction.
public struct StoreOutbox: OutboxStore {
    public let service: LifeSignalService

    public init(service: LifeSignalService) { self.service = service }

    public func claimDue(now: Date, limit: Int, owner: String, leaseUntil: Date) async throws -> [OutboxItem] {
        let due = try await service.store.write { tx in
            try await tx.claimDueDeliveries(now: now, limit: limit, owner: owner, leaseUntil: leaseUntil)
        }
        let base = service.configuration.publicBaseURL
        return due.map { item in
            let n = item.notification
            return OutboxItem(
                message: OutgoingMessage(
                    deliveryID: item.delivery.id, notificationID: n.id, recipientID: n.recipientID,
                    channel: item.delivery.channel, address: item.delivery.address, kind: n.type, title: n.title,
                    body: n.body, urgent: n.category == .alerts,
                    link: n.incidentID.map { "\(base)/incidents/\($0)" } ?? "\(base)/notifications"),
                attempts: item.delivery.attempts)
        }
    }

    /// Records every outcome in one transaction; deliveries that no longer exist are skipped.
    public func record(_ attempts: [AttemptRecord]) async throws {
        try await service.write { tx, _ in
            let found = try await tx.deliveriesToRecord(attempts.map(\.deliveryID))
            // In the order of the timelines they append to: each timeline's first append locks its
            // person's row (PostgreSQL), so batches of two workers take those locks in one order.
            let targets = attempts.compactMap { attempt in found[attempt.deliveryID].map { (attempt, $0) } }
                .sorted { ($0.1.timelineOwner, $0.0.at) < ($1.1.timelineOwner, $1.0.at) }
            var updates: [DeliveryUpdate] = []
            for (attempt, target) in targets { updates.append(try await record(attempt, of: target, tx: tx)) }
            try await tx.updateDeliveries(updates)
        }
    }

    /// Writes the attempt to the timeline and queues a fallback; returns the delivery's new state.
    private func record(_ attempt: AttemptRecord, of target: DeliveryToRecord, tx: StoreTransaction) async throws -> DeliveryUpdate {
        let (id, delivery, at) = (attempt.deliveryID, target.delivery, attempt.at)
        let attempts = delivery.attempts + 1
        let (status, reason, providerID, next): (Delivery.Status, String?, String?, Date?) =
            switch attempt.outcome {
            case let .sent(provider): (.sent, nil, provider, nil)
            case let .delivered(provider): (.delivered, nil, provider, nil)
            case let .retry(retryAt, why): (.queued, why, nil, retryAt)
            case let .failed(why): (.failed, why, nil, nil)
            }
        let update = DeliveryUpdate(
            id: id, status: status, reason: reason, attempts: attempts, providerID: providerID, nextAttemptAt: next, at: at)
        guard let notification = target.notification else { return update }
        let name = target.recipient.map {
            LifeSignalService.displayName(firstName: $0.firstName, lastName: $0.lastName, phone: $0.phone)
        } ?? LifeSignalService.deletedAccountName
        try await tx.appendTimeline(
            notification.subjectUserID ?? notification.recipientID, at: at, kind: "delivery",
            summary: "\(name): \(delivery.channel.rawValue) \(status.rawValue)\(reason.map { " (\($0))" } ?? "")",
            detail: Detail.json([
                "delivery": id.description, "notification": notification.id.description,
                "channel": delivery.channel.rawValue, "status": status.rawValue, "attempt": String(attempts),
            ]))
        if case .failed = attempt.outcome, target.fallbackRank >= 0 {
            try await queueFallback(after: delivery, rank: target.fallbackRank, notification: notification, tx: tx)
        }
        return update
    }

    /// Queues the recipient's next channel after a failed one, if they have another.
    private func queueFallback(after failed: Delivery, rank: Int, notification: Notification, tx: StoreTransaction) async throws {
        let targets = try await service.deliveryTargets(for: notification, tx: tx)
        guard rank + 1 < targets.count else { return }
        let target = targets[rank + 1]
        let now = service.now
        try await tx.insertDelivery(
            Delivery(
                id: service.newID(), notificationID: notification.id, recipientID: notification.recipientID,
                channel: target.kind, address: target.address, status: .queued, createdAt: now, updatedAt: now),
            fallbackRank: rank + 1, dueAt: now)
    }
}

extension LifeSignalService {
    /// A provider's callback ("delivered", "failed") for a message it accepted earlier.
    public func recordProviderStatus(providerID: String, status: Delivery.Status, reason: String?) async throws {
        try await write { tx, _ in
            guard let delivery = try await tx.delivery(providerID: providerID) else { return }
            // Only move forward: a late "sent" never overwrites "delivered".
            let order: [Delivery.Status] = [.queued, .sent, .delivered, .failed]
            guard order.firstIndex(of: status)! > order.firstIndex(of: delivery.status)! else { return }
            try await tx.updateDelivery(
                delivery.id, status: status, reason: reason, attempts: delivery.attempts, providerID: nil,
                nextAttemptAt: nil, at: now)
        }
    }
}

extension DeliveryToRecord {
    /// Whose timeline an attempt is written to: the person the notification is about.
    fileprivate var timelineOwner: UserID {
        notification.map { $0.subjectUserID ?? $0.recipientID } ?? delivery.recipientID
    }
}
