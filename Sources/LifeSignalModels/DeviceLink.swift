import Foundation

/// A named check-in link for a device or an automation ("Front door button", "Kitchen motion
/// sensor", "Watch shortcut"): a secret address (`POST /d/{secret}`) that can only check the
/// person in. The secret is shown once, when the link is made; only its hash is stored.
///
/// By default a link's check-in does not end an open missed check-in: a motion sensor firing
/// is not her saying she is fine. It is shown to her responders as activity ("Front door
/// button 09:14, not confirmed by Ada") unless she chose `resolvesAlerts` for that link.
public struct DeviceLink: Identifiable, Codable, Hashable, Sendable {
    public var id: DeviceLinkID
    public var name: String
    /// Whether a check-in from this link also ends an open missed check-in.
    public var resolvesAlerts: Bool
    public var createdAt: Date
    /// The last call that counted (calls within a minute of it are one check-in).
    public var lastUsedAt: Date?

    /// At most this many links per person.
    public static let limit = 10
    /// Calls closer together than this count once.
    public static let coalescingSeconds: TimeInterval = 60

    public init(id: DeviceLinkID, name: String, resolvesAlerts: Bool, createdAt: Date, lastUsedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.resolvesAlerts = resolvesAlerts
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

public typealias DeviceLinkID = Identifier<DeviceLink>

/// A link just made: the link, and its address with the secret, shown this once.
public struct NewDeviceLink: Codable, Hashable, Sendable {
    public var link: DeviceLink
    /// `https://…/d/<secret>`: `POST` to it checks in.
    public var url: String

    public init(link: DeviceLink, url: String) {
        self.link = link
        self.url = url
    }
}

/// A device link's call while a missed check-in was open and the link may not end it: shown to
/// responders as a sign of life she has not confirmed.
public struct DeviceActivity: Codable, Hashable, Sendable {
    /// The link's name when it was used.
    public var device: String
    public var at: Date

    public init(device: String, at: Date) {
        self.device = device
        self.at = at
    }
}
