import Foundation
import LifeSignalModels

/// The durable outbox as the worker sees it. `LifeSignalStore` implements it over SQL; any
/// number of workers in any number of processes may share one store.
public protocol OutboxStore: Sendable {
    /// Claims up to `limit` queued deliveries due at `now` whose lease is free, leasing them to
    /// `owner` until `leaseUntil`. Claiming is atomic: two callers never get the same delivery
    /// while its lease holds (PostgreSQL: `FOR NO KEY UPDATE SKIP LOCKED`).
    func claimDue(now: Date, limit: Int, owner: String, leaseUntil: Date) async throws -> [OutboxItem]

    /// ``claimDue(now:limit:owner:leaseUntil:)`` with paced channels: at most `paced[channel]`
    /// deliveries on each (the slots its rate leaves now), alerts first, then daily calls and
    /// reminders, then the rest, each oldest first (``CallPacing/rank(_:)``). By default the
    /// claim ignores the slots, and the worker gives back what finds none.
    func claimDue(
        now: Date, limit: Int, owner: String, leaseUntil: Date, paced: [ChannelKind: Int]
    ) async throws
        -> [OutboxItem]

    /// Records the outcomes of attempts, all in one transaction (all of them or none): counts
    /// each attempt, stores status, reason and provider id, and releases the lease. (The store
    /// moves a failed one to the recipient's next channel — that is the store's business, not
    /// the worker's.)
    func record(_ attempts: [AttemptRecord]) async throws

    /// Deliveries already leased to this worker's process and handed to it in memory (see
    /// `workOffered()`), up to `limit`, oldest first, whose lease lasts past `leasedPast`
    /// (the others are left to a claim once their lease ends): a worker takes these without a
    /// claim, also while a round is under way. Alerts (``OutgoingMessage/urgent``) come first;
    /// with `alertsOnly`, alerts alone: an alert handed over in the middle of a round joins it
    /// at once, whatever else is waiting. None by default.
    func takeOffered(limit: Int, leasedPast: Date, alertsOnly: Bool) -> [OutboxItem]

    /// Returns when work may have arrived before the next poll (deliveries queued in this
    /// process, say), or when the task is cancelled. By default it never does: the poll decides.
    func workOffered() async

    /// The worker stopped: nothing is to be handed to it any more. Nothing to do by default.
    func workerStopped() async

    /// Writes down, before the provider is called, that these deliveries' attempts are starting,
    /// so whoever takes one over after this worker dies knows it may have been sent (see
    /// ``OutboxItem/mayHaveBeenSent``). Returns once it is stored; a failure is the store's to
    /// log (the send goes ahead: an alert is never held back for want of a note). Nothing by default.
    func markSending(_ items: [OutboxItem], owner: String, at: Date) async

    /// Gives deliveries this worker claimed (or took over) and will not attempt back to the
    /// outbox at once, their lease cleared, instead of when the lease ends: a worker shutting
    /// down calls it for what it had not started. Best effort: a failure leaves them to their
    /// lease. Nothing to do by default.
    func release(_ items: [OutboxItem], owner: String) async
}

extension OutboxStore {
    public func claimDue(
        now: Date, limit: Int, owner: String, leaseUntil: Date, paced: [ChannelKind: Int]
    ) async throws -> [OutboxItem] {
        try await claimDue(now: now, limit: limit, owner: owner, leaseUntil: leaseUntil)
    }

    public func takeOffered(limit: Int, leasedPast: Date, alertsOnly: Bool) -> [OutboxItem] { [] }

    /// Everything handed over, alerts first.
    public func takeOffered(limit: Int, leasedPast: Date) -> [OutboxItem] {
        takeOffered(limit: limit, leasedPast: leasedPast, alertsOnly: false)
    }

    public func workerStopped() async {}

    public func release(_ items: [OutboxItem], owner: String) async {}

    public func markSending(_ items: [OutboxItem], owner: String, at: Date) async {}

    public func workOffered() async {
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
    }
}

/// One attempt's outcome, to be recorded.
public struct AttemptRecord: Sendable, Equatable {
    public var deliveryID: DeliveryID
    public var outcome: AttemptOutcome
    public var at: Date
    /// An earlier attempt may have reached the recipient (``OutboxItem/mayHaveBeenSent``):
    /// a send is recorded as possibly the second copy.
    public var mayHaveBeenSentBefore: Bool

    public init(deliveryID: DeliveryID, outcome: AttemptOutcome, at: Date, mayHaveBeenSentBefore: Bool = false) {
        self.deliveryID = deliveryID
        self.outcome = outcome
        self.at = at
        self.mayHaveBeenSentBefore = mayHaveBeenSentBefore
    }
}
