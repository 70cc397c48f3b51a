/// The roles a link carries, seen from one side. Never empty on a stored link.
public struct ContactRoles: OptionSet, Codable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Watches over me: sees my status, gets my alerts.
    public static let responder = ContactRoles(rawValue: 1 << 0)
    /// Someone I watch over: I see their status and may ping them.
    public static let dependent = ContactRoles(rawValue: 1 << 1)

    /// The same link seen from the other side: my responder sees me as a dependent.
    public var mirrored: ContactRoles {
        var roles: ContactRoles = []
        if contains(.responder) { roles.insert(.dependent) }
        if contains(.dependent) { roles.insert(.responder) }
        return roles
    }

    public var isResponder: Bool { contains(.responder) }
    public var isDependent: Bool { contains(.dependent) }

    private enum CodingKeys: String, CodingKey { case responder, dependent }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self = []
        if try c.decodeIfPresent(Bool.self, forKey: .responder) == true { insert(.responder) }
        if try c.decodeIfPresent(Bool.self, forKey: .dependent) == true { insert(.dependent) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(isResponder, forKey: .responder)
        try c.encode(isDependent, forKey: .dependent)
    }
}
