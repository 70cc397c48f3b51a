import Foundation
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

extension LifeSignalService {
    public func contactCode(_ caller: Caller) -> ContactCode {
        ContactCode(code: caller.user.contactCode, link: "lifesignal://contact/\(caller.user.contactCode)")
    }

    /// A new code; the old one stops working at once.
    public func rotateContactCode(_ caller: Caller) async throws -> ContactCode {
        let code = newContactCode()
        try await write { tx, _ in
            try await tx.setContactCode(caller.user.id, code: code)
            try await tx.appendTimeline(caller.user.id, at: now, kind: "code_rotated", summary: "Contact code changed", detail: "{}")
        }
        return ContactCode(code: code, link: "lifesignal://contact/\(code)")
    }

    /// Who a code belongs to: their name and emergency note, shown before adding them.
    public func lookUpContactCode(_ caller: Caller, code raw: String) async throws -> ContactPreview {
        let code = try validated { try Validation.contactCode(raw) }
        guard let user = try await read({ try await $0.user(contactCode: code) }) else {
            throw ServiceError(.notFound, code: "code_not_found", "No one has that code. Check it and try again.")
        }
        guard user.id != caller.user.id else {
            throw ServiceError(.invalid, code: "own_code", "That is your own code.", field: "code")
        }
        return ContactPreview(userID: user.id, firstName: user.firstName, lastName: user.lastName, emergencyNote: user.emergencyNote)
    }

    /// Links the caller to the owner of `code` with the roles chosen (at least one).
    /// The other person is told and can remove the link.
    public func addContact(_ caller: Caller, code raw: String, roles: ContactRoles) async throws -> Contact {
        guard !roles.isEmpty else {
            throw ServiceError.invalid(field: "roles", "Choose at least one role: responder or dependent.")
        }
        let preview = try await lookUpContactCode(caller, code: raw)
        return try await write { tx, events in
            if try await tx.link(userID: caller.user.id, contactID: preview.userID) != nil {
                throw ServiceError(.conflict, code: "already_linked", "\(preview.firstName) is already one of your contacts.")
            }
            try await tx.insertLink(LinkRecord(userID: caller.user.id, contactID: preview.userID, roles: roles, addedAt: now))
            let me = try await displayName(caller.user.id, tx: tx)
            try await notify(
                NotificationDraft(
                    recipient: preview.userID, kind: .contactAdded, subject: caller.user.id, title: "\(me) added you",
                    body: "\(me) added you as their \(Self.describe(roles.mirrored)). You can remove them from your contacts."),
                tx: tx, events: events)
            try await tx.appendTimeline(
                caller.user.id, at: now, kind: "contact_added", summary: "Added \(preview.firstName) as \(Self.describe(roles))",
                detail: Detail.json(["contact": preview.userID.description]))
            events.add(.contactsChanged, to: [caller.user.id, preview.userID])
            return try await contact(of: caller.user.id, contactID: preview.userID, tx: tx)
        }
    }

    /// Changes my roles for a contact (never to none: that is removing them). Losing the
    /// dependent role clears my outstanding ping to them.
    public func updateRoles(_ caller: Caller, contact contactID: UserID, roles: ContactRoles) async throws -> Contact {
        guard !roles.isEmpty else {
            throw ServiceError.invalid(field: "roles", "A contact needs at least one role. Remove them instead.")
        }
        return try await write { tx, events in
            guard let link = try await tx.link(userID: caller.user.id, contactID: contactID) else {
                throw ServiceError(.notFound, code: "contact_not_found", "That person is not one of your contacts.")
            }
            guard link.roles != roles else { return try await contact(of: caller.user.id, contactID: contactID, tx: tx) }
            try await tx.updateLinkRoles(userID: caller.user.id, contactID: contactID, roles: roles)
            try await clearPingsNoLongerAllowed(between: caller.user.id, and: contactID, roles: roles, tx: tx, events: events)
            let me = try await displayName(caller.user.id, tx: tx)
            try await notify(
                NotificationDraft(
                    recipient: contactID, kind: .roleChanged, subject: caller.user.id, title: "\(me) changed your role",
                    body: "You are now \(me)'s \(Self.describe(roles.mirrored))."),
                tx: tx, events: events)
            events.add(.contactsChanged, to: [caller.user.id, contactID])
            return try await contact(of: caller.user.id, contactID: contactID, tx: tx)
        }
    }

    public func removeContact(_ caller: Caller, contact contactID: UserID) async throws {
        try await write { tx, events in
            guard try await tx.link(userID: caller.user.id, contactID: contactID) != nil else {
                throw ServiceError(.notFound, code: "contact_not_found", "That person is not one of your contacts.")
            }
            try await clearPingsNoLongerAllowed(between: caller.user.id, and: contactID, roles: [], tx: tx, events: events)
            try await tx.deleteLink(userID: caller.user.id, contactID: contactID)
            let me = try await displayName(caller.user.id, tx: tx)
            try await notify(
                NotificationDraft(
                    recipient: contactID, kind: .contactRemoved, subject: caller.user.id, title: "\(me) removed you",
                    body: "You are no longer linked with \(me)."),
                tx: tx, events: events)
            events.add(.contactsChanged, to: [caller.user.id, contactID])
        }
    }

    public func contacts(_ caller: Caller, sort: ContactSort = .urgency) async throws -> ContactLists {
        let all = try await read { tx in
            try await tx.links(of: caller.user.id).asyncMap { try await contact(of: caller.user.id, contactID: $0.contactID, tx: tx) }
        }
        return ContactLists(
            responders: sort.responders(all.filter { $0.roles.isResponder }),
            dependents: sort.dependents(all.filter { $0.roles.isDependent }))
    }

    public func contact(_ caller: Caller, id: UserID) async throws -> Contact {
        try await read { tx in
            guard try await tx.link(userID: caller.user.id, contactID: id) != nil else {
                throw ServiceError(.notFound, code: "contact_not_found", "That person is not one of your contacts.")
            }
            return try await contact(of: caller.user.id, contactID: id, tx: tx)
        }
    }

    /// One contact as `userID` sees them: status only for dependents, pings either way.
    func contact(of userID: UserID, contactID: UserID, tx: StoreTransaction) async throws -> Contact {
        guard let link = try await tx.link(userID: userID, contactID: contactID), let other = try await tx.user(contactID) else {
            throw ServiceError(.notFound, code: "contact_not_found", "That person is not one of your contacts.")
        }
        let pings = try await tx.pendingPings(involving: contactID)
        let status = link.roles.isDependent
            ? StatusRule.status(of: other, openIncidents: try await tx.openIncidents(of: contactID), now: now) : nil
        return Contact(
            userID: contactID, firstName: other.firstName, lastName: other.lastName, phone: other.phone,
            emergencyNote: other.emergencyNote, hasAvatar: other.hasAvatar, roles: link.roles, addedAt: link.addedAt,
            status: status,
            outgoingPing: pings.first { $0.fromUserID == userID && $0.toUserID == contactID },
            incomingPing: pings.first { $0.fromUserID == contactID && $0.toUserID == userID })
    }

    static func describe(_ roles: ContactRoles) -> String {
        switch (roles.isResponder, roles.isDependent) {
        case (true, true): "responder and dependent"
        case (true, false): "responder"
        case (false, true): "dependent"
        case (false, false): "contact"
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
