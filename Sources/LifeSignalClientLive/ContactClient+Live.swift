import Dependencies
import Foundation
import LifeSignalClient
import LifeSignalAPI
import LifeSignalModels

extension ContactClient: DependencyKey {
    public static var liveValue: ContactClient { .live(api: .fromEnvironment()) }

    public static func live(api: APIClient) -> ContactClient {
        ContactClient(
            contactCode: { try await api.send(Operations.getContactCode) },
            rotateCode: { try await api.send(Operations.rotateContactCode) },
            lookUp: { codeOrLink in
                try await api.send(Operations.lookUpContactCode, ByCode(Self.code(from: codeOrLink)))
            },
            add: { codeOrLink, roles in
                try await api.send(Operations.addContact, body: AddContactBody(code: Self.code(from: codeOrLink), roles: roles))
            },
            requests: { try await api.send(Operations.listContactRequests) },
            acceptRequest: { id, roles in
                try await api.send(Operations.acceptContactRequest, ByID(id), body: RolesBody(roles: roles))
            },
            declineRequest: { id in try await api.send(Operations.declineContactRequest, ByID(id)) },
            updateRoles: { id, roles in
                try await api.send(Operations.updateContactRoles, ByID(id), body: ContactChangeBody(roles: roles))
            },
            remove: { id in try await api.send(Operations.removeContact, ByID(id)) },
            list: { sort in try await api.send(Operations.listContacts, ContactListQuery(sort: sort)) },
            contact: { id in try await api.send(Operations.getContact, ByID(id)) },
            status: { id in try await api.send(Operations.getContactStatus, ByID(id)) }
        )
    }

    /// The code inside a `lifesignal://contact/<code>` link (or the text as typed), trimmed.
    /// The server validates it; this only keeps the link out of the URL path.
    public static func code(from codeOrLink: String) -> String {
        let text = codeOrLink.trimmingCharacters(in: .whitespacesAndNewlines)
        if let range = text.range(of: "contact/", options: .backwards) {
            return String(text[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        }
        return text
    }
}
