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

    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// A sign-in on an app, the web or the CLI.
        case session
        /// A personal API token for scripts and integrations.
        case apiToken = "api_token"
    }

    public init(
        id: SessionID, userID: UserID, kind: Kind, name: String, createdAt: Date, lastUsedAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
