import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Whom a message is for, as far as its words go: their language and their zone. A draft's
/// words are made for its reader once the reader is known, inside `notify`.
struct Reader: Sendable {
    var words: Words
    var zone: TimeZone

    init(_ user: User?) {
        words = Words(user?.language.flatMap { Language($0) } ?? .english)
        zone = HumanTime.zone(user?.timeZone ?? "UTC")
    }

    init(words: Words, zone: TimeZone) {
        self.words = words
        self.zone = zone
    }

    /// The reader's sentence for `key`.
    func callAsFunction(_ key: String, _ arguments: [String: String] = [:], count: Int? = nil) -> String {
        words(key, arguments, count: count)
    }

    /// `instant` in the reader's words and zone ("heute um 09:30").
    func time(_ instant: Date, now: Date) -> String {
        HumanTime.phrase(instant, in: zone, now: now, words: words)
    }

    /// `instant` about someone in `subject`'s zone: both clocks when they differ.
    func time(_ instant: Date, subject: TimeZone, now: Date) -> String {
        HumanTime.phrase(instant, reader: zone, subject: subject, now: now, words: words)
    }
}

/// What to tell one person.
struct NotificationDraft: Sendable {
    var recipient: UserID
    var kind: Notification.Kind
    var subject: UserID?
    var incident: IncidentID?
    var title: String
    var body: String
    /// Identifies the escalation step, so a retried or concurrent step notifies once.
    var stepKey: StepKey?
    /// The recipient's account when the caller has just read it (saves reading it again).
    var knownRecipient: User? = nil
    /// Sends over this one channel only, verified or not (the code that proves a new channel).
    var onlyTarget: Channel? = nil
    /// Rings the recipient's phone first, the usual channels after (the ladder is exhausted).
    var callFirst = false
    /// What the timeline says instead of the title, when the title is not for the record.
    var timelineSummary: String? = nil
    /// Makes title and body in the recipient's language and zone (`title` and `body` are
    /// then not used): the catalogue's words for whoever reads them.
    var render: (@Sendable (Reader) -> (title: String, body: String))? = nil

    init(
        recipient: UserID, kind: Notification.Kind, subject: UserID? = nil, incident: IncidentID? = nil,
        title: String, body: String, stepKey: StepKey? = nil, knownRecipient: User? = nil, onlyTarget: Channel? = nil,
        timelineSummary: String? = nil
    ) {
        self.recipient = recipient
        self.kind = kind
        self.subject = subject
        self.incident = incident
        self.title = title
        self.body = body
        self.stepKey = stepKey
        self.knownRecipient = knownRecipient
        self.onlyTarget = onlyTarget
        self.timelineSummary = timelineSummary
    }

    /// A draft whose words are made for its recipient by `render`.
    init(
        recipient: UserID, kind: Notification.Kind, subject: UserID? = nil, incident: IncidentID? = nil,
        stepKey: StepKey? = nil, knownRecipient: User? = nil, onlyTarget: Channel? = nil, timelineSummary: String? = nil,
        render: @escaping @Sendable (Reader) -> (title: String, body: String)
    ) {
        self.init(
            recipient: recipient, kind: kind, subject: subject, incident: incident, title: "", body: "", stepKey: stepKey,
            knownRecipient: knownRecipient, onlyTarget: onlyTarget, timelineSummary: timelineSummary)
        self.render = render
    }

    /// A proof code goes to the channel being proved and nowhere else: not the notification
    /// history, not the live stream, not the timeline (which records where it went, not what).
    var isProof: Bool { kind == .channelCode }
}

extension ServiceCore {
    /// Records a notification in the recipient's history, queues its deliveries in the
    /// outbox (same transaction), notes it on the timeline and streams it live.
    /// Returns nil when the step was already notified.
    @discardableResult
    func notify(_ draft: NotificationDraft, tx: StoreTransaction, events: PendingEvents) async throws -> Notification? {
        try await notify([draft], tx: tx, events: events)[0]
    }

    /// `notify` for many drafts at once, in a fixed number of statements whatever their count:
    /// the engine's burst path. Returns, for each draft in order, its notification, or nil when
    /// its step was already notified. Timeline entries are appended in the drafts' order.
    @discardableResult
    func notify(_ drafts: [NotificationDraft], tx: StoreTransaction, events: PendingEvents) async throws -> [Notification?] {
        guard !drafts.isEmpty else { return [] }
        // Recipients are read once (callers pass the ones they hold): for their language and
        // zone, the default channel's number and the timeline's name.
        var recipients: [UserID: User] = [:]
        for draft in drafts {
            if let known = draft.knownRecipient, known.id == draft.recipient { recipients[known.id] = known }
        }
        let toRender = Set(drafts.filter { $0.render != nil }.map(\.recipient)).subtracting(recipients.keys)
        if !toRender.isEmpty { recipients.merge(try await tx.people.users(Array(toRender))) { known, _ in known } }
        // Each message in its reader's words; the timeline keeps English in the same zone.
        let words = drafts.map { draft -> (title: String, body: String, record: String) in
            guard let render = draft.render else { return (draft.title, draft.body, draft.title) }
            let reader = Reader(recipients[draft.recipient])
            let own = render(reader)
            let record = reader.words.language == .english ? own.title : render(Reader(words: .english, zone: reader.zone)).title
            return (own.title, own.body, record)
        }
        let notifications = drafts.indices.map { index in
            Notification(
                id: newID(), recipientID: drafts[index].recipient, type: drafts[index].kind, subjectUserID: drafts[index].subject,
                incidentID: drafts[index].incident, title: words[index].title, body: words[index].body, createdAt: now)
        }
        let inserted = try await tx.notifications.insert(
            zip(notifications, drafts).map { NewNotification($0, stepKey: $1.stepKey?.rawValue) })
        let sent = drafts.indices.filter { inserted.contains(notifications[$0].id) }
        guard !sent.isEmpty else { return drafts.map { _ in nil } }

        let unread = Set(sent.map { drafts[$0].recipient }).subtracting(recipients.keys)
        recipients.merge(try await tx.people.users(Array(unread))) { known, _ in known }
        let channels = try await tx.channels.all(of: Array(Set(sent.map { drafts[$0].recipient })))
        let optedOut = try await tx.channels.optedOutNumbers(
            among: sent.flatMap { index in
                DeliveryPlan.textAddresses(
                    channels: channels[drafts[index].recipient] ?? [], recipient: recipients[drafts[index].recipient],
                    defaultChannel: configuration.defaultChannel)
            })

        var deliveries: [QueuedDelivery] = []
        for index in sent {
            let notification = notifications[index]
            let planned =
                drafts[index].onlyTarget.map { [DeliveryPlan.only(DeliveryTarget(channel: $0.kind, address: $0.address))] }
                ?? DeliveryPlan.firstDeliveries(
                    for: notification.type,
                    to: {
                        let usual = targets(
                            for: notification, channels: channels[notification.recipientID] ?? [],
                            recipient: recipients[notification.recipientID], optedOut: optedOut)
                        guard drafts[index].callFirst else { return usual }
                        return DeliveryPlan.callingFirst(usual, phone: recipients[notification.recipientID]?.phone)
                    }())
            deliveries += planned.map { queued($0, of: notification) }
        }
        // Leased to this process's worker and handed to it once this commits, when it runs here.
        let lease = handoff.lease(now: now)
        try await tx.deliveries.insert(deliveries, leasedTo: lease)
        if let lease {
            let byID = Dictionary(uniqueKeysWithValues: sent.map { (notifications[$0].id, notifications[$0]) })
            let hooked = Set(deliveries.filter { $0.delivery.channel == .webhook }.map(\.delivery.recipientID))
            let secrets = hooked.isEmpty ? [:] : try await tx.channels.webhookSecrets(of: hooked)
            events.handOver(
                deliveries.map { queued in
                    let delivery = queued.delivery
                    return DeliveryHandoff.Item(
                        target: DeliveryToRecord(
                            delivery: delivery, fallbackRank: queued.fallbackRank, notification: byID[delivery.notificationID],
                            recipient: recipients[delivery.recipientID].map(DeliveryToRecord.Recipient.init),
                            signingSecret: delivery.channel == .webhook
                                ? secrets[delivery.recipientID]?[delivery.address].flatMap {
                                    Secrets.open($0, key: configuration.serverKey)
                                } : nil,
                            fallbackNext: queued.fallbackNext),
                        leaseUntil: lease.until, owner: lease.owner)
                })
        }

        for index in sent {
            let (draft, notification) = (drafts[index], notifications[index])
            try await tx.timeline.append(
                draft.subject ?? draft.recipient, at: now,
                summary: draft.timelineSummary ?? "\(words[index].record) → \(Self.displayName(of: recipients[draft.recipient]))",
                NotificationSent(notification: notification.id, type: draft.kind, recipient: draft.recipient))
            if draft.isProof {
                // The row stays for the outbox, which reads the message from it; out of sight.
                try await tx.notifications.hide(notification.id, of: draft.recipient, at: now)
            } else {
                events.add(.notification(notification), to: [draft.recipient])
            }
        }
        let sentSet = Set(sent)
        return drafts.indices.map { sentSet.contains($0) ? notifications[$0] : nil }
    }

    /// A planned delivery of `notification`, queued now and due at once.
    func queued(_ planned: PlannedDelivery, of notification: Notification) -> QueuedDelivery {
        QueuedDelivery(
            Delivery(
                id: newID(), notificationID: notification.id, recipientID: notification.recipientID,
                channel: planned.target.channel, address: planned.target.address, status: .queued, createdAt: now,
                updatedAt: now),
            fallbackRank: planned.fanOut == .everyChannel ? -1 : planned.rank, fallbackNext: planned.fanOut.storedNext,
            dueAt: now, paceRank: CallPacing.rank(notification.type))
    }

    /// The recipient's targets for this notification, read now (see ``DeliveryPlan/targets(for:channels:recipient:defaultChannel:optedOut:)``).
    func deliveryTargets(for notification: Notification, tx: StoreTransaction) async throws -> [DeliveryTarget] {
        let channels = try await tx.channels.all(of: notification.recipientID)
        let recipient = try await tx.people.user(notification.recipientID)
        return targets(
            for: notification, channels: channels, recipient: recipient,
            optedOut: try await tx.channels.optedOutNumbers(
                among: DeliveryPlan.textAddresses(
                    channels: channels, recipient: recipient, defaultChannel: configuration.defaultChannel)))
    }

    /// `deliveryTargets` with the recipient's channels and account at hand.
    func targets(
        for notification: Notification, channels: [Channel], recipient: User?, optedOut: Set<String> = []
    ) -> [DeliveryTarget] {
        DeliveryPlan.targets(
            for: notification.type, channels: channels, recipient: recipient, defaultChannel: configuration.defaultChannel,
            optedOut: optedOut)
    }

    /// What a responder hears after an alert: someone is on it, the person is safe.
    static func isAlertFollowUp(_ kind: Notification.Kind) -> Bool { DeliveryPlan.isAlertFollowUp(kind) }

    /// The notifications that tell a responder someone needs them.
    static func isAlert(_ kind: Notification.Kind) -> Bool { DeliveryPlan.isAlert(kind) }

    func displayName(_ id: UserID, tx: StoreTransaction) async throws -> String {
        Self.displayName(of: try await tx.people.user(id))
    }

    static func displayName(of user: User?) -> String {
        user.map { displayName(firstName: $0.firstName, lastName: $0.lastName, phone: $0.phone) } ?? deletedAccountName
    }

    /// The full name, or the phone number for someone who gave no name.
    static func displayName(firstName: String, lastName: String, phone: String) -> String {
        let full = User.fullName(firstName: firstName, lastName: lastName)
        return full.isEmpty ? phone : full
    }

    static let deletedAccountName = "a deleted account"
}

/// Builds the sorted-key JSON kept as machine-readable timeline detail.
///
/// Written by hand (it runs inside write transactions, for every timeline entry):
/// JSONSerialization cost ~25 µs a call. The output is byte for byte what
/// `JSONSerialization` writes with `[.sortedKeys, .withoutEscapingSlashes]`; keys other than
/// lowercase letters (whose sort order Foundation defines its own way) still go through it.
enum Detail {
    static func json(_ fields: [String: String]) -> String {
        guard fields.keys.allSatisfy({ $0.utf8.allSatisfy { (97...122).contains($0) } }) else {
            return foundationJSON(fields)
        }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, key) in fields.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            appendString(fields[key]!, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    static func foundationJSON(_ fields: [String: String]) -> String {
        let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A JSON string: quote, backslash and control characters escaped, everything else as is.
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        let backslash = UInt8(ascii: "\\")
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [backslash, byte])
            case backslash: out.append(contentsOf: [backslash, backslash])
            case 0x08: out.append(contentsOf: [backslash, UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [backslash, UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [backslash, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [backslash, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [backslash, UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(contentsOf: Array([byte].lowercaseHex.utf8))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
