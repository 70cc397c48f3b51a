import Foundation

/// Another person linked to me, with the roles the link carries from my side.
public struct Contact: Identifiable, Codable, Hashable, Sendable {
    public var id: UserID { userID }
    public var userID: UserID
    public var firstName: String
    public var lastName: String
    public var phone: String
    public var emergencyNote: String
    public var hasAvatar: Bool
    public var roles: ContactRoles
    public var addedAt: Date
    /// Their check-in status; present only when they are my dependent.
    public var status: CheckInStatus?
    /// The ping I sent them that they have not answered (they are my dependent).
    public var outgoingPing: Ping?
    /// The ping they sent me that I have not answered (they are my responder).
    public var incomingPing: Ping?
    /// My request to them that they have not answered yet (roles I asked to add).
    public var pendingRequest: ContactRequest?
    /// For my responders: whether I marked them as holding my key (named first in every alert
    /// to the others, first in my ladder's default order). Nil for someone not my responder.
    public var keyHolder: Bool?
    /// For my dependents with a ladder of more than one step: where I stand on it.
    public var ladderPlace: LadderPlace?

    public init(
        userID: UserID, firstName: String, lastName: String, phone: String,
        emergencyNote: String, hasAvatar: Bool, roles: ContactRoles, addedAt: Date,
        status: CheckInStatus? = nil, outgoingPing: Ping? = nil, incomingPing: Ping? = nil,
        pendingRequest: ContactRequest? = nil, keyHolder: Bool? = nil, ladderPlace: LadderPlace? = nil
    ) {
        self.userID = userID
        self.firstName = firstName
        self.lastName = lastName
        self.phone = phone
        self.emergencyNote = emergencyNote
        self.hasAvatar = hasAvatar
        self.roles = roles
        self.addedAt = addedAt
        self.status = status
        self.outgoingPing = outgoingPing
        self.incomingPing = incomingPing
        self.pendingRequest = pendingRequest
        self.keyHolder = keyHolder
        self.ladderPlace = ladderPlace
    }

    public var fullName: String { User.fullName(firstName: firstName, lastName: lastName) }
}

/// A person as someone not (yet) linked to them may see them. From a contact code: a name and
/// whether there is a photo, never the emergency note (that is for accepted contacts). In an
/// incident report, for the responders told: the note too.
public struct ContactPreview: Codable, Hashable, Sendable {
    public var userID: UserID
    public var firstName: String
    public var lastName: String
    public var hasAvatar: Bool
    /// Present only where the viewer may read it (an incident of someone they watch over).
    public var emergencyNote: String?

    public init(userID: UserID, firstName: String, lastName: String, hasAvatar: Bool = false, emergencyNote: String? = nil) {
        self.userID = userID
        self.firstName = firstName
        self.lastName = lastName
        self.hasAvatar = hasAvatar
        self.emergencyNote = emergencyNote
    }

    public var fullName: String { User.fullName(firstName: firstName, lastName: lastName) }
}
