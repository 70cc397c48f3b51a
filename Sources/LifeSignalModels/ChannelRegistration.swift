import Foundation

/// A channel to register: where to reach the caller and for which kinds of notification.
public struct ChannelRegistration: Sendable, Hashable, Codable {
    public var kind: ChannelKind
    public var address: String
    public var categories: Set<Notification.Category>?

    public init(kind: ChannelKind, address: String, categories: Set<Notification.Category>? = nil) {
        self.kind = kind
        self.address = address
        self.categories = categories
    }
}
