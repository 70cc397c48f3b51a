import Foundation
import LifeSignalModels

/// A delivery with what the worker needs to send it and to record the attempt: its fallback
/// rank, its notification and its recipient's name.
public struct DeliveryToRecord: Sendable, Equatable {
    public struct Recipient: Sendable, Equatable {
        public var firstName: String
        public var lastName: String
        public var phone: String
        /// Their language (BCP 47), nil until chosen: what a message to them is spoken and
        /// marked in.
        public var language: String?

        public init(firstName: String, lastName: String, phone: String, language: String? = nil) {
            self.language = language
            self.firstName = firstName
            self.lastName = lastName
            self.phone = phone
        }

        public init(_ user: User) {
            self.init(firstName: user.firstName, lastName: user.lastName, phone: user.phone, language: user.language)
        }
    }

    public var delivery: Delivery
    public var fallbackRank: Int
    /// The targets it falls back to, as stored when it was queued (see ``QueuedDelivery``).
    public var fallbackNext: String?
    /// Nil when the notification is gone.
    public var notification: LifeSignalModels.Notification?
    /// Nil when the recipient's account is gone.
    public var recipient: Recipient?
    /// The webhook channel's own signing secret, when the delivery goes to one that has it.
    public var signingSecret: String?
    /// When an attempt that was never recorded was handed to a provider (its worker died or was
    /// cut off): the recipient may already have it. Nil for a delivery never started, or whose
    /// last attempt was recorded.
    public var sendingSince: Date?

    public init(
        delivery: Delivery, fallbackRank: Int, notification: LifeSignalModels.Notification?, recipient: Recipient?,
        signingSecret: String? = nil, sendingSince: Date? = nil, fallbackNext: String? = nil
    ) {
        self.delivery = delivery
        self.fallbackRank = fallbackRank
        self.fallbackNext = fallbackNext
        self.notification = notification
        self.recipient = recipient
        self.signingSecret = signingSecret
        self.sendingSince = sendingSince
    }
}

/// A delivery to queue in the outbox.
public struct QueuedDelivery: Sendable, Equatable {
    public var delivery: Delivery
    /// Its place in the recipient's list of targets (the order deliveries are listed in); -1
    /// for one of a notification sent on every channel at once.
    public var fallbackRank: Int
    /// The targets it falls back to when it fails, in order, as the rules encode them; nil
    /// for none.
    public var fallbackNext: String?
    /// When it is due; nil for never (until something makes it due).
    public var dueAt: Date?
    /// Its place when a paced channel's slots are short, lowest first (`CallPacing.rank` of
    /// its notification's kind; 2, "the rest", unless the caller knows better).
    public var paceRank: Int

    public init(_ delivery: Delivery, fallbackRank: Int, fallbackNext: String? = nil, dueAt: Date?, paceRank: Int = 2) {
        self.delivery = delivery
        self.fallbackRank = fallbackRank
        self.fallbackNext = fallbackNext
        self.dueAt = dueAt
        self.paceRank = paceRank
    }
}

/// A worker's lease on a delivery: nobody else attempts it before `until`.
public struct DeliveryLease: Sendable, Equatable {
    public var owner: String
    public var until: Date

    public init(owner: String, until: Date) {
        self.owner = owner
        self.until = until
    }
}

/// The outcome of one attempt, as saved on its delivery. `nextAttemptAt` nil means finished.
public struct DeliveryUpdate: Sendable, Equatable {
    public var id: DeliveryID
    public var status: Delivery.Status
    public var reason: String?
    public var attempts: Int
    public var providerID: String?
    public var nextAttemptAt: Date?
    public var at: Date
    /// Applied only while the delivery still has this many attempts (nil: always), so an
    /// outcome from a worker whose lease ran out and was taken over changes nothing.
    public var expectedAttempts: Int?
    /// Whether the attempt's start stays noted (`sending_since`): an attempt cut off before the
    /// provider answered may have gone out, and the next one must say so. Otherwise cleared.
    public var keepsSendingMark: Bool = false

    public init(
        id: DeliveryID, status: Delivery.Status, reason: String?, attempts: Int, providerID: String?,
        nextAttemptAt: Date?, at: Date, expectedAttempts: Int? = nil, keepsSendingMark: Bool = false
    ) {
        self.keepsSendingMark = keepsSendingMark
        self.id = id
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.providerID = providerID
        self.nextAttemptAt = nextAttemptAt
        self.at = at
        self.expectedAttempts = expectedAttempts
    }
}

/// A delivery as stored, with its place in the fallback list.
public struct StoredDelivery: Sendable {
    public var delivery: Delivery
    public var fallbackRank: Int
}

/// The outbox now: how many deliveries are due, and since when the oldest.
public struct OutboxDue: Sendable {
    public var due: Int
    public var oldestDueAt: Date?
}

extension StoreTransaction {
    /// The outbox: each notification's deliveries to a channel, their leases and claims by the
    /// workers, their attempts and outcomes.
    public struct Deliveries: Sendable {
        let tx: StoreTransaction
    }

    public var deliveries: Deliveries { Deliveries(tx: self) }
}

extension StoreTransaction.Deliveries {
    /// Queues a delivery in the outbox, due at `dueAt`.
    public func insert(
        _ d: Delivery, fallbackRank: Int, fallbackNext: String? = nil, dueAt: Date?, paceRank: Int = 2
    ) async throws {
        try await insert([
            QueuedDelivery(d, fallbackRank: fallbackRank, fallbackNext: fallbackNext, dueAt: dueAt, paceRank: paceRank)
        ])
    }

    /// ``insert(_:leasedTo:)`` for deliveries that fall back to nothing stored (the
    /// store's own tests; the core queues `QueuedDelivery` values).
    func insert(
        _ deliveries: [(delivery: Delivery, fallbackRank: Int, dueAt: Date?)], leasedTo lease: DeliveryLease? = nil
    ) async throws {
        try await insert(
            deliveries.map { QueuedDelivery($0, fallbackRank: $1, dueAt: $2) }, leasedTo: lease)
    }

    /// Queues deliveries in the outbox, each due at its `dueAt`; with a lease, already claimed
    /// by that worker (a worker in this process, to which they are handed once this commits).
    public func insert(_ deliveries: [QueuedDelivery], leasedTo lease: DeliveryLease? = nil) async throws {
        try await tx.multiRow(
            "INSERT INTO deliveries (id, notification_id, recipient_id, channel, address, status, reason, attempts, "
                + "provider_id, fallback_rank, fallback_next, created_at, updated_at, next_attempt_at, lease_owner, "
                + "lease_until, pace_rank) VALUES ",
            row: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            deliveries.map { queued in
                let d = queued.delivery
                return [
                    d.id.sqlValue, d.notificationID.sqlValue, d.recipientID.sqlValue, d.channel.rawValue.sqlValue,
                    d.address.sqlValue, d.status.rawValue.sqlValue, d.reason.sqlValue, d.attempts.sqlValue,
                    d.providerID.sqlValue, queued.fallbackRank.sqlValue, queued.fallbackNext.sqlValue,
                    d.createdAt.sqlValue, d.updatedAt.sqlValue, queued.dueAt.sqlValue, lease?.owner.sqlValue ?? .null,
                    lease?.until.sqlValue ?? .null, queued.paceRank.sqlValue,
                ]
            })
    }

    /// A delivery, its fallback rank and its notification (nil when that is gone), in one read
    /// (the store's own tests; the worker reads them in batches with `deliveriesToRecord`).
    func deliveryWithNotification(_ id: DeliveryID) async throws -> DeliveryToRecord? {
        try await deliveriesToRecord([id])[id]
    }

    /// For recording outcomes: each delivery with its fallback rank, its notification (nil when
    /// that is gone) and its recipient's name, in one read. Unknown ids are absent.
    public func deliveriesToRecord(_ ids: [DeliveryID]) async throws -> [DeliveryID: DeliveryToRecord] {
        guard !ids.isEmpty else { return [:] }
        let list = StoreTransaction.inList(ids)
        let rows = try await tx.db.query(
            """
            SELECT d.*, n.id AS n_id, n.recipient_id AS n_recipient, n.type AS n_type,
                n.subject_user_id AS n_subject, n.incident_id AS n_incident, n.title AS n_title,
                n.body AS n_body, n.created_at AS n_created, n.read_at AS n_read,
                u.first_name AS u_first, u.last_name AS u_last, u.phone AS u_phone, u.language AS u_language,
                c.signing_secret AS c_secret
            FROM deliveries d LEFT JOIN notifications n ON n.id = d.notification_id
            LEFT JOIN users u ON u.id = d.recipient_id
            LEFT JOIN channels c ON d.channel = 'webhook' AND c.user_id = d.recipient_id
                AND c.kind = 'webhook' AND c.address = d.address
            WHERE d.id IN \(list.sql)
            """, list.binds)
        var found: [DeliveryID: DeliveryToRecord] = [:]
        found.reserveCapacity(rows.count)
        for row in rows {
            let delivery = try StoreTransaction.decodeDelivery(row)
            let notification = try row.optionalString("n_id") == nil ? nil : try StoreTransaction.decodeJoinedNotification(row)
            let recipient = try row.optionalString("u_phone").map { phone in
                DeliveryToRecord.Recipient(
                    firstName: try row.string("u_first"), lastName: try row.string("u_last"), phone: phone,
                    language: try row.optionalString("u_language"))
            }
            found[delivery.id] = DeliveryToRecord(
                delivery: delivery, fallbackRank: try row.int("fallback_rank"), notification: notification,
                recipient: recipient, signingSecret: try row.optionalString("c_secret"),
                sendingSince: try row.optionalDate("sending_since"), fallbackNext: try row.optionalString("fallback_next"))
        }
        return found
    }

    /// Saves the outcome of an attempt. `nextAttemptAt` nil means the delivery is finished.
    /// Tests arrange outcomes with it; the worker records them in batches.
    @_spi(Testing) public func update(
        _ id: DeliveryID, status: Delivery.Status, reason: String?, attempts: Int, providerID: String?,
        nextAttemptAt: Date?, at: Date
    ) async throws {
        try await update([
            DeliveryUpdate(
                id: id, status: status, reason: reason, attempts: attempts, providerID: providerID,
                nextAttemptAt: nextAttemptAt, at: at)
        ])
    }

    /// Saves the outcomes of many attempts, many rows per statement, and releases their leases.
    /// Returns the ids of the deliveries updated: not those deleted meanwhile (with their
    /// notification or recipient), nor those whose `expectedAttempts` no longer holds.
    @discardableResult
    public func update(_ updates: [DeliveryUpdate]) async throws -> Set<DeliveryID> {
        // The casts type the columns of the VALUES list on PostgreSQL, where a column of NULLs
        // would otherwise be text.
        let rows = try await tx.multiRow(
            "WITH outcome (id, status, reason, attempts, provider_id, next_attempt_at, updated_at, expected, keeps_mark) AS (VALUES ",
            row: "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
            suffix: """
                ) UPDATE deliveries SET status = outcome.status, reason = CAST(outcome.reason AS TEXT),
                    attempts = CAST(outcome.attempts AS BIGINT),
                    provider_id = COALESCE(CAST(outcome.provider_id AS TEXT), deliveries.provider_id),
                    next_attempt_at = CAST(outcome.next_attempt_at AS BIGINT),
                    updated_at = CAST(outcome.updated_at AS BIGINT), lease_owner = NULL, lease_until = NULL,
                    sending_since = CASE WHEN CAST(outcome.keeps_mark AS BIGINT) = 1 THEN deliveries.sending_since ELSE NULL END
                FROM outcome WHERE deliveries.id = outcome.id
                    AND (outcome.expected IS NULL OR deliveries.attempts = CAST(outcome.expected AS BIGINT))
                RETURNING deliveries.id
                """,
            updates.map { u in
                [
                    u.id.sqlValue, u.status.rawValue.sqlValue, u.reason.sqlValue, u.attempts.sqlValue,
                    u.providerID.sqlValue, u.nextAttemptAt.sqlValue, u.at.sqlValue, u.expectedAttempts.sqlValue,
                    (u.keepsSendingMark ? 1 : 0).sqlValue,
                ]
            })
        return Set(try rows.map { try $0.id("id") })
    }

    public func delivery(_ id: DeliveryID) async throws -> StoredDelivery? {
        guard let row = try await tx.db.queryFirst("SELECT * FROM deliveries WHERE id = ?", id) else { return nil }
        return StoredDelivery(delivery: try StoreTransaction.decodeDelivery(row), fallbackRank: try row.int("fallback_rank"))
    }

    public func delivery(providerID: String) async throws -> Delivery? {
        try await tx.db.queryFirst("SELECT * FROM deliveries WHERE provider_id = ?", providerID)
            .map(StoreTransaction.decodeDelivery)
    }

    public func list(notification: NotificationID) async throws -> [Delivery] {
        try await tx.db.query(
            "SELECT * FROM deliveries WHERE notification_id = ? ORDER BY created_at, fallback_rank", notification
        ).map(StoreTransaction.decodeDelivery)
    }

    /// The deliveries of the codes that prove `userID`'s channels, oldest first: a settings page
    /// says "sent" only once the provider took one, and says so when it failed.
    public func channelCodeDeliveries(of userID: UserID) async throws -> [Delivery] {
        try await tx.db.query(
            """
            SELECT d.* FROM notifications n JOIN deliveries d ON d.notification_id = n.id
            WHERE n.recipient_id = ? AND n.type = 'channel_code' ORDER BY d.created_at, d.id
            """, userID
        ).map(StoreTransaction.decodeDelivery)
    }

    /// Every delivery of every notification about an incident: the "who was reached" proof.
    public func list(incident: IncidentID) async throws -> [Delivery] {
        try await tx.db.query(
            """
            SELECT d.* FROM deliveries d JOIN notifications n ON n.id = d.notification_id
            WHERE n.incident_id = ? ORDER BY d.created_at, d.fallback_rank
            """, incident
        ).map(StoreTransaction.decodeDelivery)
    }

    /// The titles of an incident's notifications, by id: what each of its deliveries carried.
    public func notificationTitles(incident: IncidentID) async throws -> [NotificationID: String] {
        var titles: [NotificationID: String] = [:]
        for row in try await tx.db.query("SELECT id, title FROM notifications WHERE incident_id = ?", incident) {
            titles[try row.id("id")] = try row.string("title")
        }
        return titles
    }

    /// How many deliveries are due at `now` (held by a worker or not) and when the oldest of
    /// them fell due: the outbox's backlog, for the gauges and `/health` (the `deliveries_due` index).
    public func outboxBacklog(now: Date) async throws -> OutboxDue {
        // A daily call waits for its slot at the provider's rate (a thousand at 09:00 at one a
        // second take a quarter of an hour): its lateness is measured against that slot
        // (`stalledDailyCalls`), so the oldest due here is the oldest of everything else.
        let row = try await tx.db.queryFirst(
            """
            SELECT COUNT(*) AS n,
              MIN(CASE WHEN NOT EXISTS (
                SELECT 1 FROM notifications n WHERE n.id = deliveries.notification_id AND n.type = 'daily_call'
              ) THEN next_attempt_at END) AS oldest
            FROM deliveries
            WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ?
            """, now)
        return OutboxDue(due: try row?.int("n") ?? 0, oldestDueAt: try row?.optionalDate("oldest"))
    }

    /// Deliveries not finished yet (the store's own tests).
    func pendingCount() async throws -> Int {
        try await tx.db.queryFirst(
            "SELECT COUNT(*) AS n FROM deliveries WHERE next_attempt_at IS NOT NULL")?.int("n") ?? 0
    }
}

extension StoreTransaction {
    /// The `n_`-prefixed notification columns of a delivery joined with its notification.
    static func decodeJoinedNotification(_ row: SQLRow) throws -> LifeSignalModels.Notification {
        LifeSignalModels.Notification(
            id: try row.id("notification_id"), recipientID: try row.id("n_recipient"),
            type: try row.value("n_type", as: LifeSignalModels.Notification.Kind.self),
            subjectUserID: try row.optionalID("n_subject"), incidentID: try row.optionalID("n_incident"),
            title: try row.string("n_title"), body: try row.string("n_body"),
            createdAt: try row.date("n_created"), readAt: try row.optionalDate("n_read"))
    }

    static func decodeDelivery(_ row: SQLRow) throws -> Delivery {
        Delivery(
            id: try row.id("id"), notificationID: try row.id("notification_id"),
            recipientID: try row.id("recipient_id"),
            channel: try row.value("channel", as: ChannelKind.self),
            address: try row.string("address"),
            status: try row.value("status", as: Delivery.Status.self),
            reason: try row.optionalString("reason"), attempts: try row.int("attempts"),
            providerID: try row.optionalString("provider_id"), createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"))
    }
}
