import Foundation
import LifeSignalModels

/// Where a notification goes: one channel and address of its recipient.
public struct DeliveryTarget: Hashable, Sendable, Codable {
    public var channel: ChannelKind
    public var address: String

    public init(channel: ChannelKind, address: String) {
        self.channel = channel
        self.address = address
    }
}

/// How a notification's deliveries spread over its recipient's targets.
public enum DeliveryFanOut: Hashable, Sendable {
    /// Sent on every target at once (manual alerts, drills); a failed one is not replaced.
    case everyChannel
    /// Sent on one target; when it fails, on `next`'s first, which carries the rest with it.
    case fallback(next: [DeliveryTarget])
}

/// A delivery to queue: its target, its place in the recipient's list, and what a failure
/// of it leads to.
public struct PlannedDelivery: Hashable, Sendable {
    public var target: DeliveryTarget
    /// Its place in the recipient's list (0 for the first): the order deliveries are shown in.
    public var rank: Int
    public var fanOut: DeliveryFanOut

    public init(target: DeliveryTarget, rank: Int, fanOut: DeliveryFanOut) {
        self.target = target
        self.rank = rank
        self.fanOut = fanOut
    }
}

/// Channel routing: which of a recipient's channels a notification goes to, and in what order.
public enum DeliveryPlan {
    /// The recipient's channels that accept this kind of notification, in their order; the
    /// server's default channel to their phone when they registered none. An alert always ends
    /// with the default channel to the verified phone number, whatever else is registered, so
    /// an e-mail address that cannot be reached never leaves a responder untold.
    ///
    /// Numbers that said STOP (`optedOut`) are not texted: carrier rules, and the provider would
    /// refuse anyway. An alert for such a number calls it instead (STOP covers texts, not
    /// calls): a responder who turned texts off must still hear that someone needs them, and
    /// then that someone is on it and that the person is safe; and the person whose alert went
    /// out must still hear who was told (`alertSent`, which also ends with her verified number).
    public static func targets(
        for kind: LifeSignalModels.Notification.Kind, channels: [Channel], recipient: User?, defaultChannel: ChannelKind,
        optedOut: Set<String> = []
    ) -> [DeliveryTarget] {
        let all = unfilteredTargets(for: kind, channels: channels, recipient: recipient, defaultChannel: defaultChannel)
        guard !optedOut.isEmpty else { return all }
        let alert = endsWithThePhone(kind) || isAlertFollowUp(kind)
        var kept: [DeliveryTarget] = []
        for target in all {
            var target = target
            if target.channel == .sms && optedOut.contains(target.address) {
                guard alert else { continue }
                target.channel = .voice
            }
            if !kept.contains(target) { kept.append(target) }
        }
        return kept
    }

    /// The deliveries queued when a notification is sent to `targets`: every one of them for a
    /// manual alert or a drill, otherwise the first, falling back down the list.
    public static func firstDeliveries(for kind: LifeSignalModels.Notification.Kind, to targets: [DeliveryTarget]) -> [PlannedDelivery] {
        guard let first = targets.first else { return [] }
        if fanOut(for: kind) == .everyChannel {
            return targets.enumerated().map { PlannedDelivery(target: $1, rank: $0, fanOut: .everyChannel) }
        }
        return [PlannedDelivery(target: first, rank: 0, fanOut: .fallback(next: Array(targets.dropFirst())))]
    }

    /// `targets` with a call to `phone` first: for the moment nobody has answered an alert and
    /// a ringing phone is what it takes. The rest stay as fallbacks.
    public static func callingFirst(_ targets: [DeliveryTarget], phone: String?) -> [DeliveryTarget] {
        guard let phone, !phone.isEmpty else { return targets }
        let call = DeliveryTarget(channel: .voice, address: phone)
        return [call] + targets.filter { $0 != call }
    }

    /// A delivery to exactly one target (the code that proves a new channel): nothing to fall back to.
    public static func only(_ target: DeliveryTarget) -> PlannedDelivery {
        PlannedDelivery(target: target, rank: 0, fanOut: .fallback(next: []))
    }

    /// Manual alerts and drills go out on every channel at once; everything else falls back.
    public static func fanOut(for kind: LifeSignalModels.Notification.Kind) -> FanOutKind {
        kind == .manualAlert || kind == .drill ? .everyChannel : .fallback
    }

    /// The two ways a notification spreads, without the targets.
    public enum FanOutKind: Hashable, Sendable { case everyChannel, fallback }

    /// The numbers a recipient may be texted at (to look up which of them said STOP).
    public static func textAddresses(channels: [Channel], recipient: User?, defaultChannel: ChannelKind) -> [String] {
        channels.filter { $0.kind == .sms }.map(\.address) + (defaultChannel == .sms ? [recipient?.phone].compactMap { $0 } : [])
    }

    /// The notifications that tell a responder someone needs them: the verified number is
    /// always their last fallback.
    public static func isAlert(_ kind: LifeSignalModels.Notification.Kind) -> Bool {
        kind == .incidentOpened || kind == .manualAlert
    }

    /// What must reach the recipient whatever else is registered, so it always ends with the
    /// default channel to the verified phone: an alert, and her own notice of who was told.
    public static func endsWithThePhone(_ kind: LifeSignalModels.Notification.Kind) -> Bool {
        isAlert(kind) || kind == .alertSent
    }

    /// What a responder hears after an alert: someone is on it, the person is safe.
    public static func isAlertFollowUp(_ kind: LifeSignalModels.Notification.Kind) -> Bool {
        kind == .incidentAcknowledged || kind == .incidentResolved || kind == .manualAlertCleared
    }

    private static func unfilteredTargets(
        for kind: LifeSignalModels.Notification.Kind, channels: [Channel], recipient: User?, defaultChannel: ChannelKind
    ) -> [DeliveryTarget] {
        // A channel nobody has proved theirs receives nothing: it could be a stranger's phone.
        let registered = channels.filter {
            $0.isVerified && (kind.category == .alerts || kind == .drill || $0.categories.contains(kind.category))
        }.map { DeliveryTarget(channel: $0.kind, address: $0.address) }
        // The server's default channel to the recipient's number (none for a deleted account).
        let fallback = recipient.map { DeliveryTarget(channel: defaultChannel, address: $0.phone) }
        if registered.isEmpty { return fallback.map { [$0] } ?? [] }
        guard endsWithThePhone(kind), let last = fallback, !registered.contains(last) else { return registered }
        return registered + [last]
    }
}

extension DeliveryFanOut {
    /// The targets left to fall back to, as stored with the delivery (`fallback_next`): a JSON
    /// list of `{"address","channel"}`; nil when sent on every channel.
    public var storedNext: String? {
        guard case .fallback(let next) = self else { return nil }
        if next.isEmpty { return "[]" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(next)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// The fan-out of a stored delivery: rank -1 is every channel at once; otherwise the stored
    /// list. Nil for a delivery queued before the list was stored (or whose list cannot be
    /// read): its fallbacks are the recipient's targets after its rank (see ``legacy(rank:targets:)``).
    public init?(storedRank: Int, storedNext: String?) {
        if storedRank < 0 {
            self = .everyChannel
            return
        }
        guard let storedNext, let next = try? JSONDecoder().decode([DeliveryTarget].self, from: Data(storedNext.utf8))
        else { return nil }
        self = .fallback(next: next)
    }

    /// The fan-out of a delivery queued before the next targets were stored with it: the
    /// recipient's targets read now, after its place in them.
    public static func legacy(rank: Int, targets: [DeliveryTarget]) -> DeliveryFanOut {
        .fallback(next: Array(targets.dropFirst(rank + 1)))
    }
}
