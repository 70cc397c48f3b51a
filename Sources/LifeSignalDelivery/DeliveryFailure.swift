/// Why an adapter could not hand a message over. The reason is a short sentence fit to show a
/// person ("The SMS provider is unavailable."); technical detail goes to the log.
public enum DeliveryFailure: Error, Sendable, Hashable {
    /// Worth retrying on the same channel later: 5xx, 429, timeout, connection refused.
    case transient(String)
    /// Retrying will not help on this channel: 4xx, a bad address, an expired subscription.
    case permanent(String)

    /// The sentence to show a person.
    public var reason: String {
        switch self {
        case .transient(let reason), .permanent(let reason): reason
        }
    }

    /// Whether the same channel may be tried again.
    public var isTransient: Bool {
        if case .transient = self { return true }
        return false
    }
}
