import Foundation
import LifeSignalDelivery
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore
import Synchronization

/// The durable outbox over the store, for the delivery workers. Recording an outcome
/// also writes it to the subject's timeline and, for a failed channel, queues the
/// recipient's next channel — all in one transaction.
///
/// What a claim read (delivery, notification, recipient's name) is kept until the attempt is
/// recorded, so recording reads nothing again: the lease makes this worker the only one
/// attempting the delivery meanwhile, and a delivery deleted meanwhile (with its notification
/// or its recipient) is found missing by the update itself. An attempt recorded without its
/// claim at hand (another process claimed it, or the claim was pruned) is read from the store.
public struct StoreOutbox: OutboxStore {
    let core: ServiceCore
    private let claims = ClaimedDeliveries()

    public init(core: ServiceCore) { self.core = core }

    /// Claims due deliveries from the store. It is only written to when a read found something
    /// due, so an idle poll never waits for (or holds) the writer.
    public func claimDue(now: Date, limit: Int, owner: String, leaseUntil: Date) async throws -> [OutboxItem] {
        try await claimDue(now: now, limit: limit, owner: owner, leaseUntil: leaseUntil, paced: [:])
    }

    /// A paced channel's deliveries as many as its slots allow, alerts first, then daily calls
    /// and reminders, then the rest (``CallPacing/rank(_:)``, stored with each delivery).
    public func claimDue(
        now: Date, limit: Int, owner: String, leaseUntil: Date, paced: [ChannelKind: Int]
    ) async throws -> [OutboxItem] {
        claims.forgetExpired(now: now)
        guard try await core.store.read({ try await $0.deliveries.hasDue(now: now) }) else { return [] }
        let due = try await core.store.write { tx in
            try await tx.deliveries.claimDue(
                now: now, limit: limit, owner: owner, leaseUntil: leaseUntil, paced: paced)
        }
        claims.remember(due.map { ($0, leaseUntil) })
        return due.compactMap { outboxItem($0, leaseUntil: leaseUntil) }
    }

    /// Deliveries handed over by this process's transactions (stored leased to this process:
    /// no claim needed) whose lease lasts past `leasedPast`.
    public func takeOffered(limit: Int, leasedPast: Date, alertsOnly: Bool) -> [OutboxItem] {
        let handed = core.handoff.take(limit, leasedPast: leasedPast, alertsOnly: alertsOnly)
        claims.remember(handed.map { ($0.target, $0.leaseUntil) })
        return handed.compactMap { outboxItem($0.target, leaseUntil: $0.leaseUntil) }
    }

    /// The worker stopped: deliveries are no longer handed over, and those handed over but
    /// never taken go back to the poll at once rather than when their lease ends.
    public func workerStopped() async {
        guard let (owner, left) = core.handoff.disarm(), !left.isEmpty else { return }
        let ids = left.map(\.target.delivery.id)
        _ = claims.take(ids)
        do {
            try await core.store.write { tx in try await tx.deliveries.release(ids, leasedTo: owner) }
        } catch {
            core.logger.warning(
                "Could not give handed-over deliveries back to the poll; they are retried when their lease ends",
                metadata: ["count": "\(ids.count)", "error": "\(String(reflecting: error))"])
        }
    }

    /// Claimed deliveries the worker will not attempt (it is shutting down): their lease is
    /// cleared, so any worker (this instance's next run, another instance) takes them at once.
    public func release(_ items: [OutboxItem], owner: String) async {
        let ids = items.map(\.message.deliveryID)
        guard !ids.isEmpty else { return }
        _ = claims.take(ids)
        // None of them reached a provider in this run; those whose earlier attempt is in doubt
        // keep saying so.
        let inDoubt = items.filter(\.mayHaveBeenSent).map(\.message.deliveryID)
        let fresh = items.filter { !$0.mayHaveBeenSent }.map(\.message.deliveryID)
        do {
            try await core.store.write { tx in
                try await tx.deliveries.release(inDoubt, leasedTo: owner)
                try await tx.deliveries.release(fresh, leasedTo: owner, clearingSendingMarks: true)
            }
        } catch {
            core.logger.warning(
                "Could not give unstarted deliveries back; they are retried when their lease ends",
                metadata: ["count": "\(ids.count)", "error": "\(String(reflecting: error))"])
        }
    }

    /// What the worker sends for a claimed delivery (nothing once its notification is gone).
    private func outboxItem(_ claimed: DeliveryToRecord, leaseUntil: Date) -> OutboxItem? {
        guard let n = claimed.notification else { return nil }
        let base = core.configuration.publicBaseURL
        return OutboxItem(
            message: OutgoingMessage(
                deliveryID: claimed.delivery.id, notificationID: n.id, recipientID: n.recipientID,
                channel: claimed.delivery.channel, address: claimed.delivery.address, kind: n.type, title: n.title,
                body: n.body, urgent: n.category == .alerts,
                // A proof code is entered in the settings (it is in no notification list).
                link: n.incidentID.map { "\(base)/incidents/\($0)" } ?? "\(base)\(Self.page(for: n.type))",
                signingSecret: claimed.signingSecret.flatMap { Secrets.open($0, key: core.configuration.serverKey) },
                language: claimed.recipient?.language),
            attempts: claimed.delivery.attempts, leaseUntil: leaseUntil, inDoubtSince: claimed.sendingSince)
    }

    /// Notes, before the provider is called, that these sends are starting (one write for all).
    public func markSending(_ items: [OutboxItem], owner: String, at: Date) async {
        let ids = items.map(\.message.deliveryID)
        guard !ids.isEmpty else { return }
        do {
            try await core.store.write { tx in try await tx.deliveries.markSending(ids, owner: owner, at: at) }
        } catch {
            core.logger.warning(
                "Could not note that sends are starting; sent anyway (a crash now would resend them unmarked)",
                metadata: ["count": "\(ids.count)", "error": "\(String(reflecting: error))"])
        }
    }

    /// The page a message without an incident opens: a proof code is entered in the settings
    /// (it is in no notification list); a contact request is answered on Contacts, where its
    /// Accept and Decline are.
    static func page(for kind: Notification.Kind) -> String {
        switch kind {
        case .channelCode: "/settings"
        case .contactRequested: "/contacts#requests-card"
        default: "/notifications"
        }
    }

    /// Deliveries handed over by this process's transactions.
    public func workOffered() async {
        await core.handoff.waitForOffer()
    }

    /// Records every outcome in one transaction; deliveries that no longer exist are skipped.
    public func record(_ attempts: [AttemptRecord]) async throws {
        let claimed = claims.take(attempts.map(\.deliveryID))
        try await core.write { tx, events in
            let unknown = attempts.map(\.deliveryID).filter { claimed[$0] == nil }
            let known =
                unknown.isEmpty
                ? claimed : claimed.merging(try await tx.deliveries.deliveriesToRecord(unknown)) { claimed, _ in claimed }
            let targets = attempts.compactMap { attempt in
                known[attempt.deliveryID].map { (attempt: attempt, target: $0, update: Self.update(for: attempt, of: $0)) }
            }.sorted { ($0.target.timelineOwner, $0.attempt.at) < ($1.target.timelineOwner, $1.attempt.at) }
            // Deliveries deleted meanwhile, or recorded meanwhile by a worker that took over an
            // expired lease, are left as they are.
            let present = try await tx.deliveries.update(targets.map(\.update))
            let recorded = targets.filter { present.contains($0.attempt.deliveryID) }
            // A proof code whose send is settled (taken, or failed for good) is not kept: the
            // row the outbox built the message from loses it. One still to retry keeps it.
            try await tx.notifications.scrubProofCodes(
                recorded.filter { $0.target.notification?.type == .channelCode && $0.update.status != .queued }
                    .compactMap { $0.target.notification?.id })
            // Every timeline written to, read (and locked on PostgreSQL, in one order for every
            // worker) at once. A subject whose account is gone leaves the attempt on the
            // recipient's timeline, where its notification now belongs.
            var timelines = try await tx.timeline.lockHeads(recorded.map(\.target.timelineOwner))
            let orphaned = recorded.filter { !timelines.contains($0.target.timelineOwner) }.map(\.target.delivery.recipientID)
            if !orphaned.isEmpty { timelines.formUnion(try await tx.timeline.lockHeads(orphaned)) }
            for (attempt, target, update) in recorded {
                // Cut off by shutdown: nothing happened that a timeline could tell (it goes out
                // again, the delivery row says why it waits).
                if case .interrupted = attempt.outcome { continue }
                let owner = timelines.contains(target.timelineOwner) ? target.timelineOwner : target.delivery.recipientID
                var failed = false
                if case .failed = attempt.outcome { failed = true }
                try await core.recordOutcome(
                    of: target, update, failed: failed, onTimelineOf: owner, tx: tx, events: events)
            }
            // The person an alert is about sees how it went, live.
            try await core.publishHelpProgress(
                of: Set(
                    recorded.compactMap { recorded -> UserID? in
                        if case .interrupted = recorded.attempt.outcome { return nil }
                        return recorded.target.notification.flatMap { n in
                            ServiceCore.isAlert(n.type) && n.subjectUserID != n.recipientID ? n.subjectUserID : nil
                        }
                    }),
                tx: tx, events: events)
        }
    }

    /// The delivery's state after the attempt.
    private static func update(for attempt: AttemptRecord, of target: DeliveryToRecord) -> DeliveryUpdate {
        let (status, reason, providerID, next): (Delivery.Status, String?, String?, Date?) =
            switch attempt.outcome {
            case let .sent(provider): (.sent, attempt.mayHaveBeenSentBefore ? possibleDuplicateReason : nil, provider, nil)
            case let .delivered(provider): (.delivered, attempt.mayHaveBeenSentBefore ? possibleDuplicateReason : nil, provider, nil)
            case let .alreadySent(provider): (.sent, foundAtProviderReason, provider, nil)
            case let .retry(retryAt, why): (.queued, why, nil, retryAt)
            case let .failed(why): (.failed, why, nil, nil)
            // Due again at once, and the attempt it did not finish is not counted.
            case .interrupted: (.queued, WorkerShutdown.interruptedReason, nil, attempt.at)
            }
        let counted = attempt.outcome == .interrupted ? 0 : 1
        return DeliveryUpdate(
            id: attempt.deliveryID, status: status, reason: reason, attempts: target.delivery.attempts + counted,
            providerID: providerID, nextAttemptAt: next, at: attempt.at, expectedAttempts: target.delivery.attempts,
            keepsSendingMark: attempt.outcome == .interrupted)
    }

    /// What a send says when an earlier attempt of it was handed to the provider and never
    /// recorded (its server died, or shutdown cut it off): the recipient may have two copies,
    /// and the record of who was reached must not claim otherwise.
    public static let possibleDuplicateReason = "may have been sent twice: an earlier attempt was cut off before the provider answered"

    /// What a delivery says when the copy an earlier, cut-off attempt handed over was found at
    /// the provider, so it was not sent again.
    public static let foundAtProviderReason = "sent once: an earlier attempt was cut off, and the provider confirmed it had the message"

}

extension ServiceCore {

    /// How many times an alert call is placed before the next channel is tried.
    public static let alertCallAttempts = DeliveryLifecycle.alertCallAttempts

    /// How long after an unanswered alert call it is placed again.
    public static let alertCallRetryDelay = DeliveryLifecycle.alertCallRetryDelay

    /// Writes an attempt's outcome to the timeline and, after a failure, queues the recipient's
    /// next channel or, with none left, tells people this responder could not be reached.
    func recordOutcome(
        of target: DeliveryToRecord, _ update: DeliveryUpdate, failed: Bool, callingAgain: Bool = false,
        onTimelineOf owner: UserID, tx: StoreTransaction, events: PendingEvents
    ) async throws {
        guard let notification = target.notification else { return }
        let name =
            target.recipient.map {
                Self.displayName(firstName: $0.firstName, lastName: $0.lastName, phone: $0.phone)
            } ?? Self.deletedAccountName
        try await tx.timeline.append(
            owner, at: update.at,
            summary:
                "\(name): \(target.delivery.channel.rawValue) \(callingAgain ? "failed" : update.status.rawValue)\(update.reason.map { " (\($0))" } ?? "")"
                + (callingAgain
                    ? ", calling again in \(Int(Self.alertCallRetryDelay / 60)) minutes" : ""),
            DeliveryRecorded(
                delivery: update.id, notification: notification.id, channel: target.delivery.channel, status: update.status,
                attempt: update.attempts))
        guard failed else { return }
        // Her daily call refused by the provider (not merely unanswered): it never rang, and
        // her responders are asked to check on her.
        if notification.type == .dailyCall, DailyCallRule.outcome(status: .failed, reason: update.reason) == .notPlaced,
            let user = try await tx.people.user(notification.recipientID)
        {
            try await tellDailyCallFailed(user, callAt: notification.createdAt, why: .refused, tx: tx, events: events)
        }
        if case let .fallBack(to: next, then: rest) = DeliveryLifecycle.afterChannelFailed(
            try await fanOut(of: target, notification: notification, tx: tx))
        {
            let now = self.now
            try await tx.deliveries.insert(
                Delivery(
                    id: newID(), notificationID: notification.id, recipientID: notification.recipientID,
                    channel: next.channel, address: next.address, status: .queued, createdAt: now, updatedAt: now),
                fallbackRank: target.fallbackRank + 1, fallbackNext: rest.storedNext, dueAt: now,
                paceRank: CallPacing.rank(notification.type))
            return
        }
        // No channel left to try: when every delivery of an alert failed, nobody may believe
        // this responder was told.
        try await reportUnreachableIfAllFailed(notification, recipientName: name, tx: tx, events: events)
    }

    /// How a delivery fans out: as stored with it, or, for one queued before that was stored,
    /// by its place in the recipient's targets read now.
    private func fanOut(
        of target: DeliveryToRecord, notification: Notification, tx: StoreTransaction
    ) async throws
        -> DeliveryFanOut
    {
        if let stored = DeliveryFanOut(storedRank: target.fallbackRank, storedNext: target.fallbackNext) { return stored }
        return .legacy(rank: target.fallbackRank, targets: try await deliveryTargets(for: notification, tx: tx))
    }
}

extension DeliveryToRecord {
    /// Whose timeline an attempt is written to: the person the notification is about.
    var timelineOwner: UserID {
        notification.map { $0.subjectUserID ?? $0.recipientID } ?? delivery.recipientID
    }
}

/// Claims this outbox made and has not recorded yet, until their lease ends.
private final class ClaimedDeliveries: Sendable {
    private let claims = Mutex<[DeliveryID: (target: DeliveryToRecord, until: Date)]>([:])

    /// Keeps deliveries just claimed until their lease ends.
    func remember(_ batch: [(target: DeliveryToRecord, until: Date)]) {
        guard !batch.isEmpty else { return }
        claims.withLock { claims in
            // A later claim of the same delivery (a newer lease) is the one that holds.
            for (target, until) in batch where (claims[target.delivery.id]?.until ?? .distantPast) <= until {
                claims[target.delivery.id] = (target, until)
            }
        }
    }

    /// Forgets claims whose lease has ended unrecorded (their attempt was never made or never
    /// recorded; whoever records them later reads the store).
    func forgetExpired(now: Date) {
        claims.withLock { claims in claims = claims.filter { $0.value.until > now } }
    }

    func take(_ ids: [DeliveryID]) -> [DeliveryID: DeliveryToRecord] {
        claims.withLock { claims in
            var taken: [DeliveryID: DeliveryToRecord] = [:]
            for id in ids { if let claim = claims.removeValue(forKey: id) { taken[id] = claim.target } }
            return taken
        }
    }
}
