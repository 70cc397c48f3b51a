import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalModels

/// Contact codes, links between people and their roles.
@DependencyClient
public struct ContactClient: Sendable {
    /// The person's own code and `lifesignal://contact/…` link.
    public var contactCode: @Sendable () async throws -> ContactCode
    /// A new code; the old one stops working at once.
    public var rotateCode: @Sendable () async throws -> ContactCode
    /// Who a code (or a `lifesignal://contact/…` link) belongs to, before adding them.
    public var lookUp: @Sendable (_ codeOrLink: String) async throws -> ContactPreview
    /// Asks the owner of a code or link to link with the roles chosen (at least one); the
    /// link exists once they accept.
    public var add: @Sendable (_ codeOrLink: String, _ roles: ContactRoles) async throws -> ContactRequest
    /// Requests received and sent.
    public var requests: @Sendable () async throws -> ContactRequestLists
    /// Accepts a request sent to me; answers with the new (or widened) contact.
    /// Says yes to the roles the person saw; a request asking for others is refused.
    public var acceptRequest: @Sendable (_ id: ContactRequestID, _ roles: ContactRoles) async throws -> Contact
    /// Declines a request sent to me, or withdraws one I sent.
    public var declineRequest: @Sendable (_ id: ContactRequestID) async throws -> ContactRequest
    /// Changes the roles of a link: roles taken off apply at once, roles added are asked for.
    public var updateRoles: @Sendable (_ id: UserID, _ roles: ContactRoles) async throws -> Contact
    /// Removes the link on both sides.
    public var remove: @Sendable (_ id: UserID) async throws -> Void
    /// Responders and dependents, sorted by the server.
    public var list: @Sendable (_ sort: ContactSort) async throws -> ContactLists
    /// One contact.
    public var contact: @Sendable (_ id: UserID) async throws -> Contact
    /// A dependent's status.
    public var status: @Sendable (_ id: UserID) async throws -> CheckInStatus
}

extension ContactClient: TestDependencyKey {
    public static let testValue = ContactClient()

    public static let previewValue = ContactClient(
        contactCode: { .preview },
        rotateCode: { .preview },
        lookUp: { _ in .preview },
        add: { _, roles in ContactRequest.preview(roles: roles) },
        requests: { ContactRequestLists(incoming: [.preview(roles: .dependent)], outgoing: []) },
        acceptRequest: { _, _ in .preview },
        declineRequest: { _ in
            var request = ContactRequest.preview(roles: .dependent)
            request.state = .declined
            return request
        },
        updateRoles: { _, roles in
            var contact = Contact.preview
            contact.roles = roles
            return contact
        },
        remove: { _ in },
        list: { _ in ContactLists(responders: [.preview], dependents: [.previewDependent]) },
        contact: { _ in .preview },
        status: { _ in .preview }
    )
}

extension DependencyValues {
    public var contactClient: ContactClient {
        get { self[ContactClient.self] }
        set { self[ContactClient.self] = newValue }
    }
}
