import Foundation

/// A request to link two people, or to add roles to their link. Nothing about either person
/// flows to the other until the recipient accepts.
public struct ContactRequest: Identifiable, Codable, Hashable, Sendable {
    public enum State: String, Codable, Hashable, Sendable, CaseIterable {
        case pending, accepted, declined, cancelled
    }

    public var id: ContactRequestID
    public var fromUserID: UserID
    public var toUserID: UserID
    /// The roles asked for, seen from the sender's side: `.responder` means "watch over me",
    /// `.dependent` means "let me watch over you".
    public var roles: ContactRoles
    public var state: State
    public var createdAt: Date
    public var decidedAt: Date?
    /// The sender's and the recipient's names, as each would see the other.
    public var fromName: String
    public var toName: String

    public init(
        id: ContactRequestID, fromUserID: UserID, toUserID: UserID, roles: ContactRoles, state: State,
        createdAt: Date, decidedAt: Date? = nil, fromName: String = "", toName: String = ""
    ) {
        self.id = id
        self.fromUserID = fromUserID
        self.toUserID = toUserID
        self.roles = roles
        self.state = state
        self.createdAt = createdAt
        self.decidedAt = decidedAt
        self.fromName = fromName
        self.toName = toName
    }

    public var isPending: Bool { state == .pending }
}

public typealias ContactRequestID = Identifier<ContactRequest>

/// Both lists of the requests screen: what others asked of me, and what I asked of them.
public struct ContactRequestLists: Codable, Hashable, Sendable {
    public var incoming: [ContactRequest]
    public var outgoing: [ContactRequest]

    public init(incoming: [ContactRequest], outgoing: [ContactRequest]) {
        self.incoming = incoming
        self.outgoing = outgoing
    }
}
