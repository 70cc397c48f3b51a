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
    var stepKey: String?
    /// The recipient's account when the caller has just read it (saves reading it again).
    var knownRecipient: User? = nil
    /// Sends over this one channel only, verified or not (the code that proves a new channel).
    var onlyTarget: Channel? = nil
    /// What the timeline says instead of the title, when the title is not for the record.
    var timelineSummary: String? = nil
    /// Makes title and body in the recipient's language and zone (`title` and `body` are
    /// then not used): the catalogue's words for whoever reads them.
    var render: (@Sendable (Reader) -> (title: String, body: String))? = nil

    init(
        recipient: UserID, kind: Notification.Kind, subject: UserID? = nil, incident: IncidentID? = nil,
        title: String, body: String, stepKey: String? = nil, knownRecipient: User? = nil, onlyTarget: Channel? = nil,
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
        stepKey: String? = nil, knownRecipient: User? = nil,
        render: @escaping @Sendable (Reader) -> (title: String, body: String)
    ) {
        self.init(
            recipient: recipient, kind: kind, subject: subject, incident: incident, title: "", body: "", stepKey: stepKey,
            knownRecipient: knownRecipient)
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
        if !toRender.isEmpty { recipients.merge(try await tx.users(Array(toRender))) { known, _ in known } }
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
        let inserted = try await tx.insertNotifications(zip(notifications, drafts.map(\.stepKey)).map { ($0, $1) })
        let sent = drafts.indices.filter { inserted.contains(notifications[$0].id) }
        guard !sent.isEmpty else { return drafts.map { _ in nil } }

        let unread = Set(sent.map { drafts[$0].recipient }).subtracting(recipients.keys)
        recipients.merge(try await tx.users(Array(unread))) { known, _ in known }
        let channels = try await tx.channels(of: Array(Set(sent.map { drafts[$0].recipient })))
        let optedOut = try await tx.optedOutNumbers(
            among: sent.flatMap { index in
                textAddresses(channels: channels[drafts[index].recipient] ?? [], recipient: recipients[drafts[index].recipient])
            })

        var deliveries: [(delivery: Delivery, fallbackRank: Int, dueAt: Date?)] = []
        for index in sent {
            let notification = notifications[index]
            if let only = drafts[index].onlyTarget {
                deliveries += queuedDeliveries(for: notification, targets: [(only.kind, only.address)])
                continue
            }
            deliveries += queuedDeliveries(
                for: notification,
                targets: targets(
                    for: notification, channels: channels[notification.recipientID] ?? [],
                    recipient: recipients[notification.recipientID], optedOut: optedOut))
        }
        // Leased to this process's worker and handed to it once this commits, when it runs here.
        let lease = handoff.lease(now: now)
        try await tx.insertDeliveries(deliveries, leasedTo: lease)
        if let lease {
            let byID = Dictionary(uniqueKeysWithValues: sent.map { (notifications[$0].id, notifications[$0]) })
            let hooked = Set(deliveries.filter { $0.delivery.channel == .webhook }.map(\.delivery.recipientID))
            let secrets = hooked.isEmpty ? [:] : try await tx.webhookSecrets(of: hooked)
            events.handOver(
                deliveries.map { delivery, fallbackRank, _ in
                    DeliveryHandoff.Item(
                        target: DeliveryToRecord(
                            delivery: delivery, fallbackRank: fallbackRank, notification: byID[delivery.notificationID],
                            recipient: recipients[delivery.recipientID].map(DeliveryToRecord.Recipient.init),
                            signingSecret: delivery.channel == .webhook
                                ? secrets[delivery.recipientID]?[delivery.address].flatMap {
                                    Secrets.open($0, key: configuration.serverKey)
                                } : nil),
                        leaseUntil: lease.until, owner: lease.owner)
                })
        }

        for index in sent {
            let (draft, notification) = (drafts[index], notifications[index])
            try await tx.appendTimeline(
                draft.subject ?? draft.recipient, at: now,
                summary: draft.timelineSummary ?? "\(words[index].record) → \(Self.displayName(of: recipients[draft.recipient]))",
                NotificationSent(notification: notification.id, type: draft.kind, recipient: draft.recipient))
            if draft.isProof {
                // The row stays for the outbox, which reads the message from it; out of sight.
                try await tx.hideNotification(notification.id, of: draft.recipient, at: now)
            } else {
                events.add(.notification(notification), to: [draft.recipient])
            }
        }
        let sentSet = Set(sent)
        return drafts.indices.map { sentSet.contains($0) ? notifications[$0] : nil }
    }

    /// Manual alerts and drills go out on every channel at once; everything else goes to the
    /// first channel and falls back down the list when a channel fails.
    private func queuedDeliveries(
        for notification: Notification, targets: [(kind: ChannelKind, address: String)]
    ) -> [(delivery: Delivery, fallbackRank: Int, dueAt: Date?)] {
        let everyChannel = notification.type == .manualAlert || notification.type == .drill
        return targets.enumerated().filter { everyChannel || $0.offset == 0 }.map { rank, target in
            (
                Delivery(
                    id: newID(), notificationID: notification.id, recipientID: notification.recipientID,
                    channel: target.kind, address: target.address, status: .queued, createdAt: now, updatedAt: now),
                everyChannel ? -1 : rank, now
            )
        }
    }

    /// The recipient's channels that accept this kind of notification, in their order; the
    /// server's default channel to their phone when they registered none. An alert always ends
    /// with the default channel to the verified phone number, whatever else is registered, so
    /// an e-mail address that cannot be reached never leaves a responder untold.
    func deliveryTargets(for notification: Notification, tx: StoreTransaction) async throws -> [(kind: ChannelKind, address: String)] {
        let channels = try await tx.channels(of: notification.recipientID)
        let recipient = try await tx.user(notification.recipientID)
        return targets(
            for: notification, channels: channels, recipient: recipient,
            optedOut: try await tx.optedOutNumbers(among: textAddresses(channels: channels, recipient: recipient)))
    }

    /// The numbers a recipient may be texted at (to look up which of them said STOP).
    private func textAddresses(channels: [Channel], recipient: User?) -> [String] {
        channels.filter { $0.kind == .sms }.map(\.address)
            + (configuration.defaultChannel == .sms ? [recipient?.phone].compactMap { $0 } : [])
    }

    /// `deliveryTargets` with the recipient's channels and account at hand. Numbers that said
    /// STOP (`optedOut`) are not texted: carrier rules, and the provider would refuse anyway.
    /// An alert for such a number calls it instead (STOP covers texts, not calls): a responder
    /// who turned texts off must still hear that someone needs them, and then that someone is
    /// on it and that the person is safe.
    func targets(
        for notification: Notification, channels: [Channel], recipient: User?, optedOut: Set<String> = []
    ) -> [(kind: ChannelKind, address: String)] {
        let all = unfilteredTargets(for: notification, channels: channels, recipient: recipient)
        guard !optedOut.isEmpty else { return all }
        let alert = Self.isAlert(notification.type) || Self.isAlertFollowUp(notification.type)
        var kept: [(kind: ChannelKind, address: String)] = []
        for target in all {
            var target = target
            if target.kind == .sms && optedOut.contains(target.address) {
                guard alert else { continue }
                target.kind = .voice
            }
            if !kept.contains(where: { $0 == target }) { kept.append(target) }
        }
        return kept
    }

    private func unfilteredTargets(
        for notification: Notification, channels: [Channel], recipient: User?
    ) -> [(kind: ChannelKind, address: String)] {
        let registered = Self.registeredTargets(for: notification, channels: channels)
        let fallback = defaultTarget(recipient)
        if registered.isEmpty { return fallback }
        guard Self.isAlert(notification.type) || notification.type == .alertSent, let last = fallback.first,
            !registered.contains(where: { $0.kind == last.kind && $0.address == last.address })
        else { return registered }
        return registered + [last]
    }

    /// What a responder hears after an alert: someone is on it, the person is safe.
    static func isAlertFollowUp(_ kind: Notification.Kind) -> Bool {
        kind == .incidentAcknowledged || kind == .incidentResolved || kind == .manualAlertCleared
    }

    /// The notifications that tell a responder someone needs them: the verified number is
    /// always their last fallback.
    static func isAlert(_ kind: Notification.Kind) -> Bool {
        kind == .incidentOpened || kind == .manualAlert
    }

    /// The recipient's registered channels that accept this kind of notification, in their order.
    private static func registeredTargets(
        for notification: Notification, channels: [Channel]
    ) -> [(kind: ChannelKind, address: String)] {
        // A channel nobody has proved theirs receives nothing: it could be a stranger's phone.
        channels.filter {
            $0.isVerified
                && (notification.category == .alerts || notification.type == .drill || $0.categories.contains(notification.category))
        }.map { ($0.kind, $0.address) }
    }

    /// The server's default channel to the recipient's number (none for a deleted account).
    private func defaultTarget(_ recipient: User?) -> [(kind: ChannelKind, address: String)] {
        guard let recipient else { return [] }
        return [(configuration.defaultChannel, recipient.phone)]
    }

    func displayName(_ id: UserID, tx: StoreTransaction) async throws -> String {
        Self.displayName(of: try await tx.user(id))
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
