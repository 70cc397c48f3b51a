import Foundation
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules
import LifeSignalStore

/// Who watches over whom: contact codes, requests the other person accepts or declines, roles
/// and removal — consent first, in both directions.
public struct Contacts: Sendable {
    let core: ServiceCore

    public init(_ core: ServiceCore) { self.core = core }
}

extension Contacts {
    public func contactCode(_ caller: Caller) -> ContactCode {
        ContactCode(code: caller.user.contactCode, link: "lifesignal://contact/\(caller.user.contactCode)")
    }

    /// A new code; the old one stops working at once.
    public func rotateContactCode(_ caller: Caller) async throws -> ContactCode {
        let code = core.newContactCode()
        try await core.write { tx, _ in
            try await tx.people.setContactCode(caller.user.id, code: code)
            try await tx.timeline.append(caller.user.id, at: core.now, summary: "Contact code changed", CodeRotated())
        }
        return ContactCode(code: code, link: "lifesignal://contact/\(code)")
    }

    /// Who a code belongs to, shown before asking to link: a name and whether there is a photo.
    public func lookUpContactCode(_ caller: Caller, code raw: String) async throws -> ContactPreview {
        try await core.read { tx in try await codeOwner(caller, code: raw, tx: tx) }
    }

    private func codeOwner(_ caller: Caller, code raw: String, tx: StoreTransaction) async throws -> ContactPreview {
        let code = try validated { try Validation.contactCode(raw) }
        guard let user = try await tx.people.user(contactCode: code) else {
            throw ServiceError(.notFound, code: .codeNotFound, Said("error.codeNotFound"))
        }
        guard user.id != caller.user.id else {
            throw ServiceError(.invalid, code: .ownCode, Said("error.ownCode"), field: "code")
        }
        return ContactPreview(userID: user.id, firstName: user.firstName, lastName: user.lastName, hasAvatar: user.hasAvatar)
    }

    /// Asks the owner of `code` to link with the roles chosen (at least one, from the caller's
    /// side). Answers with the request; the link exists once they accept.
    public func addContact(_ caller: Caller, code raw: String, roles: ContactRoles) async throws -> ContactRequest {
        guard !roles.isEmpty else {
            throw ServiceError.invalid(field: "roles", Said("error.chooseRole"))
        }
        return try await core.write { tx, events in
            let other = try await codeOwner(caller, code: raw, tx: tx)
            let current = try await tx.links.link(userID: caller.user.id, contactID: other.userID)?.roles ?? []
            let wanted = roles.subtracting(current)
            guard !wanted.isEmpty else {
                throw ServiceError(.conflict, code: .alreadyLinked, Said("error.alreadyLinked", ["name": other.firstName]))
            }
            return try await request(wanted, from: caller.user.id, to: other.userID, tx: tx, events: events)
        }
    }

    /// Sets my roles for a contact (never to none: that is removing them). Roles taken off
    /// apply at once; roles added become a request the other person accepts. Losing the
    /// dependent role clears my outstanding ping to them.
    public func updateRoles(_ caller: Caller, contact contactID: UserID, roles: ContactRoles) async throws -> Contact {
        guard !roles.isEmpty else {
            throw ServiceError.invalid(field: "roles", Said("error.keepOneRole"))
        }
        return try await core.write { tx, events in
            guard let link = try await tx.links.link(userID: caller.user.id, contactID: contactID) else {
                throw ServiceError(.notFound, code: .contactNotFound, Said("error.notAContact"))
            }
            let removed = link.roles.subtracting(roles)
            let added = roles.subtracting(link.roles)
            guard !removed.isEmpty || !added.isEmpty else {
                return try await contact(of: caller.user.id, contactID: contactID, tx: tx)
            }
            try await core.enforceLimit(
                core.configuration.limits.roleChanges, refusal: .tooManyRoleChanges, sender: caller.user.id, recipient: contactID,
                message: Said("error.tooManyLinkChanges"), tx: tx)
            let me = try await core.displayName(caller.user.id, tx: tx)
            if !removed.isEmpty {
                let kept = link.roles.subtracting(removed)
                if kept.isEmpty {
                    try await tx.links.delete(userID: caller.user.id, contactID: contactID)
                } else {
                    try await tx.links.updateRoles(userID: caller.user.id, contactID: contactID, roles: kept)
                }
                try await core.clearPingsNoLongerAllowed(between: caller.user.id, and: contactID, roles: kept, tx: tx, events: events)
                let linkEnds = kept.isEmpty
                try await core.notify(
                    NotificationDraft(
                        recipient: contactID, kind: linkEnds ? .contactRemoved : .roleChanged, subject: caller.user.id
                    ) { w in ConsentWording.removed(by: me, roles: removed, linkEnds: linkEnds, words: w.words) },
                    tx: tx, events: events)
                try await tx.timeline.append(
                    caller.user.id, at: core.now, summary: "Took \(ServiceCore.describe(removed)) off a link",
                    RolesRemoved(contact: contactID, roles: ServiceCore.describe(removed)))
            }
            var asked: ContactRequest?
            if !added.isEmpty {
                asked = try await request(added, from: caller.user.id, to: contactID, limited: false, tx: tx, events: events)
            }
            events.add(.contactsChanged, to: [caller.user.id, contactID])
            if let asked, link.roles.subtracting(removed).isEmpty {
                // Every current role was taken off and the new ones await their yes: no link is
                // left, so nothing of theirs but a name is shown.
                let other = try await tx.people.user(contactID)
                return Contact(
                    userID: contactID, firstName: other?.firstName ?? "", lastName: other?.lastName ?? "", phone: "",
                    emergencyNote: "", hasAvatar: false, roles: [], addedAt: link.addedAt, pendingRequest: asked)
            }
            return try await contact(of: caller.user.id, contactID: contactID, tx: tx)
        }
    }

    /// Stores (or widens) a pending request and tells its recipient what it would grant.
    private func request(
        _ roles: ContactRoles, from sender: UserID, to recipient: UserID, limited: Bool = true,
        tx: StoreTransaction, events: PendingEvents
    ) async throws -> ContactRequest {
        if let declined = try await tx.contactRequests.lastDeclined(from: sender, to: recipient),
            declined.addingTimeInterval(core.configuration.limits.askAgainAfterDecline) > core.now
        {
            let wait = Int(
                declined.addingTimeInterval(core.configuration.limits.askAgainAfterDecline).timeIntervalSince(core.now).rounded(.up))
            throw ServiceError(
                .rateLimited, code: .requestDeclinedRecently,
                Said("error.declinedLast"), retryAfter: max(1, wait))
        }
        if limited {
            try await core.enforceLimit(
                core.configuration.limits.contactRequests, refusal: .tooManyContactRequests, sender: sender, recipient: recipient,
                message: Said("error.tooManyContactRequests"), tx: tx)
        }
        var roles = roles
        // A request never changes once sent: the person may have read it. Asking for more
        // withdraws it and sends a new one (with a new id) for everything asked.
        if let pending = try await tx.contactRequests.pending(from: sender, to: recipient) {
            guard !pending.roles.isSuperset(of: roles) else { return pending }
            roles.formUnion(pending.roles)
            guard try await tx.contactRequests.decide(pending.id, state: .cancelled, at: core.now) else { throw Self.requestGone }
        }
        let id: ContactRequestID = core.newID()
        try await tx.contactRequests.insert(
            ContactRequest(id: id, fromUserID: sender, toUserID: recipient, roles: roles, state: .pending, createdAt: core.now))
        let request = try await tx.contactRequests.request(id)!
        try await tellRequest(request, tx: tx, events: events)
        try await tx.timeline.append(
            sender, at: core.now, summary: "Asked \(request.toName) to link (\(ServiceCore.describe(roles)))",
            ContactRequested(request: id, contact: recipient, roles: ServiceCore.describe(roles)))
        return request
    }

    private func tellRequest(_ request: ContactRequest, tx: StoreTransaction, events: PendingEvents) async throws {
        let (sender, roles) = (request.fromName, request.roles)
        try await core.notify(
            NotificationDraft(recipient: request.toUserID, kind: .contactRequested, subject: request.fromUserID) { w in
                ConsentWording.ask(from: sender, roles: roles, words: w.words)
            },
            tx: tx, events: events)
        events.add(.contactsChanged, to: [request.fromUserID, request.toUserID])
    }

    /// The requests I received and the ones I sent: pending ones first, then recent answers.
    public func contactRequests(_ caller: Caller) async throws -> ContactRequestLists {
        let all = try await core.read { try await $0.contactRequests.all(involving: caller.user.id) }
        return ContactRequestLists(
            incoming: all.filter { $0.toUserID == caller.user.id },
            outgoing: all.filter { $0.fromUserID == caller.user.id })
    }

    /// The recipient says yes to the roles they saw (`roles`): the link gets them, and both
    /// people are told what it now grants. A request that asks for other roles than those is
    /// refused (`request_changed`), and nothing is granted.
    public func acceptContactRequest(_ caller: Caller, id: ContactRequestID, roles: ContactRoles) async throws -> Contact {
        try await core.write { tx, events in
            let request = try await pendingRequest(id, to: caller.user.id, tx: tx)
            guard request.roles == roles else {
                throw ServiceError(
                    .conflict, code: .requestChanged,
                    Said("error.requestChanged"))
            }
            guard try await tx.contactRequests.decide(id, state: .accepted, at: core.now) else { throw Self.requestGone }
            let sender = request.fromUserID
            // Answered: its notification is read, wherever it was answered.
            try await tx.notifications.markRead(of: caller.user.id, kind: .contactRequested, subject: sender, at: core.now)
            if let link = try await tx.links.link(userID: sender, contactID: caller.user.id) {
                try await tx.links.updateRoles(userID: sender, contactID: caller.user.id, roles: link.roles.union(request.roles))
            } else {
                try await tx.links.insert(LinkRecord(userID: sender, contactID: caller.user.id, roles: request.roles, addedAt: core.now))
            }
            let (toName, roles) = (request.toName, request.roles)
            try await core.notify(
                NotificationDraft(recipient: sender, kind: .contactRequestAccepted, subject: caller.user.id) { w in
                    ConsentWording.accepted(by: toName, roles: roles, words: w.words)
                },
                tx: tx, events: events)
            for (owner, other, roles) in [(sender, caller.user.id, request.roles), (caller.user.id, sender, request.roles.mirrored)] {
                try await tx.timeline.append(
                    owner, at: core.now, summary: "Linked with \(owner == sender ? request.toName : request.fromName)",
                    ContactLinked(request: id, contact: other, roles: ServiceCore.describe(roles)))
            }
            events.add(.contactsChanged, to: [caller.user.id, sender])
            return try await contact(of: caller.user.id, contactID: sender, tx: tx)
        }
    }

    /// The recipient says no, or the sender takes the request back. The sender is not sent a
    /// notice of a refusal (the request shows as declined in their list).
    public func declineContactRequest(_ caller: Caller, id: ContactRequestID) async throws -> ContactRequest {
        try await core.write { tx, events in
            guard let request = try await tx.contactRequests.request(id),
                request.toUserID == caller.user.id || request.fromUserID == caller.user.id
            else { throw Self.requestNotFound }
            guard request.isPending else { throw Self.requestGone }
            let state: ContactRequest.State = request.toUserID == caller.user.id ? .declined : .cancelled
            guard try await tx.contactRequests.decide(id, state: state, at: core.now) else { throw Self.requestGone }
            // Answered or withdrawn: nothing is left to answer in the recipient's notifications.
            try await tx.notifications.markRead(of: request.toUserID, kind: .contactRequested, subject: request.fromUserID, at: core.now)
            events.add(.contactsChanged, to: [request.fromUserID, request.toUserID])
            return try await tx.contactRequests.request(id)!
        }
    }

    private func pendingRequest(_ id: ContactRequestID, to recipient: UserID, tx: StoreTransaction) async throws -> ContactRequest {
        // Only its recipient may accept; to anyone else it does not exist.
        guard let request = try await tx.contactRequests.request(id), request.toUserID == recipient else { throw Self.requestNotFound }
        guard request.isPending else { throw Self.requestGone }
        return request
    }

    static let requestNotFound = ServiceError(.notFound, code: .requestNotFound, Said("error.requestNotFound"))

    static let requestGone = ServiceError(.conflict, code: .requestAnswered, Said("error.requestAnswered"))

    /// Tells each side of links made before consent existed, once, what their link grants.
    /// Returns how many people were told; call until it returns 0.
    @discardableResult
    public func sendConsentNotices(batch: Int = 200) async throws -> Int {
        try await core.write { tx, events in
            let due = try await tx.links.dueConsentNotice(limit: batch)
            for link in due {
                let (other, roles) = (try await core.displayName(link.contactID, tx: tx), link.roles)
                try await core.notify(
                    NotificationDraft(
                        recipient: link.userID, kind: .roleChanged, subject: link.contactID,
                        stepKey: .consentNotice(user: link.userID, contact: link.contactID)
                    ) { w in ConsentWording.existingLink(other, roles: roles, words: w.words) },
                    tx: tx, events: events)
                try await tx.links.clearConsentNotice(userID: link.userID, contactID: link.contactID)
            }
            return due.count
        }
    }

    public func removeContact(_ caller: Caller, contact contactID: UserID) async throws {
        try await core.write { tx, events in
            guard let link = try await tx.links.link(userID: caller.user.id, contactID: contactID) else {
                throw ServiceError(.notFound, code: .contactNotFound, Said("error.notAContact"))
            }
            try await core.clearPingsNoLongerAllowed(between: caller.user.id, and: contactID, roles: [], tx: tx, events: events)
            try await tx.links.delete(userID: caller.user.id, contactID: contactID)
            let me = try await core.displayName(caller.user.id, tx: tx)
            let roles = link.roles
            try await core.notify(
                NotificationDraft(recipient: contactID, kind: .contactRemoved, subject: caller.user.id) { w in
                    ConsentWording.removed(by: me, roles: roles, linkEnds: true, words: w.words)
                },
                tx: tx, events: events)
            events.add(.contactsChanged, to: [caller.user.id, contactID])
        }
    }

    public func contacts(_ caller: Caller, sort: ContactSort = .urgency) async throws -> ContactLists {
        let all = try await core.read { tx in
            try await tx.links.all(of: caller.user.id).asyncMap { try await contact(of: caller.user.id, contactID: $0.contactID, tx: tx) }
        }
        return ContactLists(
            responders: sort.responders(all.filter { $0.roles.isResponder }),
            dependents: sort.dependents(all.filter { $0.roles.isDependent }))
    }

    public func contact(_ caller: Caller, id: UserID) async throws -> Contact {
        try await core.read { tx in
            guard try await tx.links.link(userID: caller.user.id, contactID: id) != nil else {
                throw ServiceError(.notFound, code: .contactNotFound, Said("error.notAContact"))
            }
            return try await contact(of: caller.user.id, contactID: id, tx: tx)
        }
    }

    /// One contact as `userID` sees them: status only for dependents, pings either way.
    func contact(of userID: UserID, contactID: UserID, tx: StoreTransaction) async throws -> Contact {
        guard let link = try await tx.links.link(userID: userID, contactID: contactID), let other = try await tx.people.user(contactID)
        else {
            throw ServiceError(.notFound, code: .contactNotFound, Said("error.notAContact"))
        }
        let pings = try await tx.pings.pending(involving: contactID)
        let status =
            link.roles.isDependent
            ? StatusRule.status(of: other, openIncidents: try await tx.incidents.openIncidents(of: contactID), now: core.now) : nil
        return Contact(
            userID: contactID, firstName: other.firstName, lastName: other.lastName, phone: other.phone,
            emergencyNote: other.emergencyNote, hasAvatar: other.hasAvatar, roles: link.roles, addedAt: link.addedAt,
            status: status,
            outgoingPing: pings.first { $0.fromUserID == userID && $0.toUserID == contactID },
            incomingPing: pings.first { $0.fromUserID == contactID && $0.toUserID == userID },
            pendingRequest: try await tx.contactRequests.pending(from: userID, to: contactID),
            keyHolder: link.roles.isResponder ? link.keyHolder : nil,
            ladderPlace: link.roles.isDependent ? try await ladderPlace(of: userID, on: contactID, tx: tx) : nil)
    }

    /// Where `responder` stands on `person`'s ladder: nil when she has none (everyone at once).
    private func ladderPlace(of responder: UserID, on person: UserID, tx: StoreTransaction) async throws -> LadderPlace? {
        guard let ladder = try await tx.ladders.ladder(of: person), ladder.steps.count > 1 else { return nil }
        let responders = ServiceCore.keyHoldersFirst(
            try await tx.links.responders(of: person), keyHolders: try await tx.links.keyHolders(of: person))
        let names = Dictionary(uniqueKeysWithValues: responders.map { ($0.id, ServiceCore.displayName(of: $0)) })
        return LadderRule.place(of: responder, on: ladder, responders: responders.map(\.id)) { names[$0] ?? "" }
    }

    /// Marks (or unmarks) one of my responders as holding my key: named first in every alert
    /// to the others, first in my ladder's default order. Only my own side of the link, and only
    /// for someone who is my responder.
    public func setKeyHolder(_ caller: Caller, contact contactID: UserID, keyHolder: Bool) async throws -> Contact {
        try await core.write { tx, events in
            guard let link = try await tx.links.link(userID: caller.user.id, contactID: contactID) else {
                throw ServiceError(.notFound, code: .contactNotFound, Said("error.notAContact"))
            }
            guard link.roles.isResponder else {
                throw ServiceError(
                    .invalid, code: ErrorCode(invalidField: "keyHolder"), Said("error.keyHolder.notResponder"), field: "keyHolder")
            }
            if link.keyHolder != keyHolder {
                try await tx.links.setKeyHolder(user: caller.user.id, contact: contactID, keyHolder)
                let name = try await core.displayName(contactID, tx: tx)
                try await tx.timeline.append(
                    caller.user.id, at: core.now, summary: keyHolder ? "\(name) holds a key" : "\(name) no longer holds a key",
                    KeyHolderChanged(contact: contactID, keyHolder: keyHolder ? "true" : "false"))
                events.add(.contactsChanged, to: [caller.user.id])
            }
            return try await contact(of: caller.user.id, contactID: contactID, tx: tx)
        }
    }
}

/// Links between people, made only with both people's yes.
///
/// Adding someone by code, or asking for a role a link does not carry yet, sends a contact
/// request; nothing about either person flows until its recipient accepts. Taking a role off a
/// link, or removing the link, is one-sided and immediate.
extension ServiceCore {
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
