import Foundation

/// A way to reach a person outside the app's own stream.
public enum ChannelKind: String, Codable, Hashable, Sendable, CaseIterable {
    /// The live in-app stream; always on, needs no endpoint.
    case inApp = "in_app"
    case webPush = "web_push"
    case apns
    case sms
    case voice
    case email
    case webhook
    case ntfy
    /// Development: prints instead of sending.
    case log
}

/// An endpoint a person registered: a push subscription, an e-mail address, a webhook URL…
public struct Channel: Identifiable, Codable, Hashable, Sendable {
    public var id: ChannelID
    public var userID: UserID
    public var kind: ChannelKind
    /// The address: e-mail, phone, URL, ntfy topic, device token, or a Web Push
    /// subscription as JSON (`{"endpoint","keys":{"p256dh","auth"}}`).
    public var address: String
    /// Order in which channels are tried; lower first. A failed channel falls back to the next.
    public var priority: Int
    /// Which notification categories go to this channel; alerts always do.
    public var categories: Set<Notification.Category>
    public var createdAt: Date
    /// When its owner proved the address is theirs (a code sent to it came back). A text,
    /// call or e-mail channel receives nothing before; other kinds are verified when added.
    public var verifiedAt: Date?
    /// A webhook channel's own signing secret: present only in the answer to the request that
    /// registered it, never read back from storage, so it is shown to its owner once.
    public var signingSecret: String?

    public var isVerified: Bool { verifiedAt != nil }

    /// Kinds that reach a phone number or a mailbox someone else may own: proved with a code.
    public static func needsVerification(_ kind: ChannelKind) -> Bool { [.sms, .voice, .email].contains(kind) }

    public init(
        id: ChannelID, userID: UserID, kind: ChannelKind, address: String, priority: Int,
        categories: Set<Notification.Category> = Set(Notification.Category.allCases),
        createdAt: Date, verifiedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.address = address
        self.priority = priority
        self.categories = categories
        self.createdAt = createdAt
        self.verifiedAt = verifiedAt
    }
}
