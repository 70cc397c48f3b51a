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
    /// The recipient's account when the caller has just read it (saves reading it again).
    var knownRecipient: User? = nil
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
        // Read once: for the default channel's number and for the timeline's name.
        let recipient = if let known = draft.knownRecipient, known.id == draft.recipient {
            known
        } else {
            try await tx.user(draft.recipient)
        }
        try await queueDeliveries(for: notification, recipient: recipient, tx: tx)
        try await tx.appendTimeline(
            draft.subject ?? draft.recipient, at: now, kind: "notification",
            summary: "\(draft.title) → \(Self.displayName(of: recipient))",
            detail: Detail.json(["notification": notification.id.description, "type": draft.kind.rawValue,
                                 "recipient": draft.recipient.description]))
        events.add(.notification(notification), to: [draft.recipient])
        return notification
    }

    /// Manual alerts and drills go out on every channel at once; everything else goes to the
    /// first channel and falls back down the list when a channel fails.
    func queueDeliveries(for notification: Notification, recipient: User?, tx: StoreTransaction) async throws {
        let channels = try await channelTargets(for: notification, tx: tx)
        let targets = channels.isEmpty ? defaultTarget(recipient) : channels
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
        let channels = try await channelTargets(for: notification, tx: tx)
        if !channels.isEmpty { return channels }
        return defaultTarget(try await tx.user(notification.recipientID))
    }

    /// The recipient's registered channels that accept this kind of notification, in their order.
    private func channelTargets(for notification: Notification, tx: StoreTransaction) async throws -> [(kind: ChannelKind, address: String)] {
        try await tx.channels(of: notification.recipientID).filter {
            notification.category == .alerts || notification.type == .drill || $0.categories.contains(notification.category)
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
