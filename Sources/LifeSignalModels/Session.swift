import Foundation

/// A signed-in device or an integration token. The secret itself is never stored.
public struct Session: Identifiable, Codable, Hashable, Sendable {
    public var id: SessionID
    public var userID: UserID
    public var kind: Kind
    /// A label: the browser or device, or the name given to an API token.
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date
    /// What the session may do: a sign-in is `full`; an API token is `checkIn` unless asked otherwise.
    public var scope: Scope
    /// When an API token stops working, if its owner set a date.
    public var expiresAt: Date?

    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// A sign-in on an app, the web or the CLI.
        case session
        /// A personal API token for scripts and integrations.
        case apiToken = "api_token"
    }

    public enum Scope: String, Codable, Hashable, Sendable, CaseIterable {
        /// Everything the person can do.
        case full
        /// Check in and read one's own status, nothing else (a script, a watch shortcut).
        case checkIn = "check_in"
    }

    public init(
        id: SessionID, userID: UserID, kind: Kind, name: String, createdAt: Date, lastUsedAt: Date,
        scope: Scope = .full, expiresAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.scope = scope
        self.expiresAt = expiresAt
    }
}
