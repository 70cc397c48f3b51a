import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// The web app's pages for the people someone watches over and who watch over them: lists, requests, codes, pings.
struct ContactRoutes: WebPageGroup {
    let pages: WebPages
    let contacts: Contacts
    let pings: Pings
    let plans: Plans

    func addRoutes(to web: RouterGroup<WebContext>) {
        web.get("/contacts") { request, context in
            try await signedIn(context) { caller in
                let sort = request.uri.queryParameters.get("sort").flatMap(ContactSort.init(rawValue:)) ?? .urgency
                let lists = try await contacts.contacts(caller, sort: sort)
                let requests = try await contacts.contactRequests(caller)
                let sorts = [
                    (ContactSort.urgency, "web.contacts.sortUrgent"), (.name, "web.contacts.sortName"),
                    (.dateAdded, "web.contacts.sortAdded"),
                ]
                .map { Choice(value: $0.0.rawValue, label: say($0.1), selected: $0.0 == sort) }
                let incoming = requests.incoming.filter(\.isPending).map(RequestView.init)
                let outgoing = requests.outgoing.filter(\.isPending).map(RequestView.init)
                // A "no" stays in view for a month, the newest per person, unless asked again since.
                let since = ReaderClock.current.now.addingTimeInterval(-Self.declinedShownFor)
                var answered = Set(requests.outgoing.filter(\.isPending).map(\.toUserID))
                let declined = requests.outgoing.filter { request in
                    request.state == .declined && (request.decidedAt ?? .distantPast) >= since
                        && answered.insert(request.toUserID).inserted
                }.map(RequestView.init)
                return try await page(
                    ContactsPage(
                        sorts: sorts,
                        dependents: lists.dependents.map(ContactView.init), responders: lists.responders.map(ContactView.init),
                        noDependents: lists.dependents.isEmpty, noResponders: lists.responders.isEmpty,
                        incoming: incoming, outgoing: outgoing, hasIncoming: !incoming.isEmpty, hasOutgoing: !outgoing.isEmpty,
                        declined: declined, hasDeclined: !declined.isEmpty
                    ), context: context)
            }
        }
        web.get("/contacts/add") { request, context in
            try await signedIn(context) { caller in
                let code = contacts.contactCode(caller)
                return try await page(AddContactPage(code, webLink: contactLink(request, context, code.code)), context: context)
            }
        }
        web.get("/contacts/qr.svg") { request, context in
            try await signedIn(context) { caller in
                let code = contacts.contactCode(caller)
                let svg = QRCodeSVG.svg(for: contactLink(request, context, code.code)) ?? ""
                return Response(
                    status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(string: svg)))
            }
        }
        web.post("/contacts/rotate") { _, context in
            try await action(context, to: "/contacts/add") { caller in
                _ = try await contacts.rotateContactCode(caller)
                return say("web.contacts.newCode")
            }
        }
        web.post("/contacts/lookup") { request, context in
            // Read as shown (groups of four with spaces or dashes, or none) or as a link.
            let typed = (context.form["code"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard let code = try? Validation.contactCode(typed) else {
                return try await refusedCode(typed, say("web.contacts.notACode"), request, context)
            }
            return Response.redirect("/contact/\(code)")
        }
        web.get("/contact/{code}") { request, context in
            guard context.caller != nil else {
                var response = Response.redirect("/signin")
                response.headers.append(
                    HTTPField(
                        name: .setCookie,
                        value: WebCookie.make(WebCookie.next, FormCoding.escape(request.uri.path), secure: context.secure, maxAge: 3600)))
                return response
            }
            return try await signedIn(context) { caller in
                let code = context.parameters.get("code") ?? ""
                do {
                    let preview = try await contacts.lookUpContactCode(caller, code: code)
                    return try await page(
                        ContactPreviewPage(code: code, name: preview.fullName, first: preview.firstName), context: context)
                } catch let error as ServiceError {
                    return try await refusedCode(code, WebController.said(error), request, context)
                }
            }
        }
        web.post("/contacts") { _, context in
            let code = context.form["code"] ?? ""
            return try await action(context, to: "/contacts", failure: "/contact/\(FormCoding.escape(code))") { caller in
                let request = try await contacts.addContact(caller, code: code, roles: roles(context.form))
                return say("web.contacts.requestSent", ["name": request.toName])
            }
        }
        web.post("/contact-requests/{id}/accept") { _, context in
            try await action(context, to: "/contacts") { caller in
                guard let id = context.parameters.get("id").flatMap(ContactRequestID.init(string:)) else { return nil }
                // The form carries the roles the page showed: a request that changed is refused.
                let contact = try await contacts.acceptContactRequest(caller, id: id, roles: roles(context.form))
                return say("web.contacts.linked", ["name": contact.fullName])
            }
        }
        web.post("/contact-requests/{id}/decline") { _, context in
            try await action(context, to: "/contacts") { caller in
                guard let id = context.parameters.get("id").flatMap(ContactRequestID.init(string:)) else { return nil }
                let request = try await contacts.declineContactRequest(caller, id: id)
                return say(request.state == .cancelled ? "web.contacts.withdrawn" : "web.contacts.declinedFlash")
            }
        }
        web.get("/contacts/{id}") { _, context in
            try await signedIn(context) { caller in
                guard let id = context.parameters.get("id").flatMap(UserID.init(string:)) else { return Response.redirect("/contacts") }
                do {
                    let contact = try await contacts.contact(caller, id: id)
                    // The plans she told her responders about: headlines and times, on her clock and his.
                    // No longer hers to see (unlinked between the two reads): the page without plans.
                    let told =
                        contact.roles.isDependent
                        ? try await unlessRefused([.userNotFound]) { try await plans.headlines(caller, of: id) } ?? [] : []
                    return try await page(
                        ContactPage(
                            title: contact.fullName, contact: ContactView(contact),
                            plans: told.map { ContactPage.PlanLine($0, zone: contact.status?.timeZone) }),
                        context: context)
                } catch let error as ServiceError where error.code != .unavailable {
                    return flashRedirect("/contacts", WebController.said(error), context)
                }
            }
        }
        web.post("/contacts/{id}/roles") { _, context in
            let id = context.parameters.get("id") ?? ""
            // A role change is confirmed on a page of its own: it changes who is told about whom.
            if context.form["confirm"] != "yes", let caller = context.caller, let userID = UserID(string: id),
                let contact = try await unlessRefused(
                    [.userNotFound, .contactNotFound], { try await contacts.contact(caller, id: userID) })
            {
                let new = roles(context.form)
                if !new.isEmpty, new != contact.roles {
                    return try await page(
                        ConfirmRolesPage(id: id, name: contact.fullName, new: new, old: contact.roles), context: context)
                }
            }
            return try await action(context, to: "/contacts/\(id)") { caller in
                guard let userID = UserID(string: id) else {
                    throw ServiceError(.notFound, code: .notFound, say("web.contacts.gone"))
                }
                let newRoles = roles(context.form)
                if newRoles.isEmpty {
                    throw ServiceError(.invalid, code: .invalidRoles, say("web.contacts.keepRole"))
                }
                let contact = try await contacts.updateRoles(caller, contact: userID, roles: newRoles)
                if let request = contact.pendingRequest, !request.roles.intersection(newRoles).isEmpty {
                    return say("web.contacts.roleRequest", ["name": contact.firstName])
                }
                return say("web.contacts.rolesUpdated")
            }
        }
        web.post("/contacts/{id}/remove") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: "/contacts", failure: "/contacts/\(id)") { caller in
                guard let userID = UserID(string: id) else {
                    throw ServiceError(.notFound, code: .notFound, say("web.contacts.gone"))
                }
                try await contacts.removeContact(caller, contact: userID)
                return say("web.contacts.removed")
            }
        }
        web.post("/contacts/{id}/ping") { _, context in
            let id = context.parameters.get("id") ?? ""
            return try await action(context, to: context.form["back"] == "list" ? "/contacts" : "/contacts/\(id)") { caller in
                guard let userID = UserID(string: id) else {
                    throw ServiceError(.notFound, code: .notFound, say("web.contacts.gone"))
                }
                _ = try await pings.ping(caller, dependent: userID)
                return say("web.contacts.pingSent")
            }
        }
        web.post("/pings/{ping}/clear") { _, context in
            let back = context.form["back"].flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil } ?? "/contacts"
            return try await action(context, to: back) { caller in
                guard let id = context.parameters.get("ping").flatMap(PingID.init(string:)) else { return nil }
                try await pings.clearPing(caller, id: id)
                return say("web.contacts.pingCleared")
            }
        }
        web.get("/pings") { _, context in
            try await signedIn(context) { caller in
                let lists = try await contacts.contacts(caller)
                let pings = lists.responders.filter { $0.incomingPing?.isPending == true }.map(ContactView.init)
                return try await page(
                    PingsPage(pings: pings, none: pings.isEmpty, checkInID: UUID().uuidString.lowercased()), context: context)
            }
        }
        web.post("/pings/help") { _, context in
            try await action(context, to: "/") { caller in
                guard let ping = context.form["ping"].flatMap(PingID.init(string:)) else {
                    throw ServiceError(.notFound, code: .pingNotFound, say("web.contacts.noPing"))
                }
                _ = try await pings.answerPingWithHelp(caller, id: ping)
                return WebController.alertRaisedMessage(responders: try await contacts.contacts(caller).responders)
            }
        }
        web.post("/pings/answer") { _, context in
            try await action(context, to: "/") { caller in
                let checkInID = CheckInID(string: context.form["checkInID"] ?? "") ?? CheckInID(UUID())
                let ping = context.form["ping"].flatMap(PingID.init(string:))
                _ = try await pings.answerPings(caller, id: ping, checkInID: checkInID)
                return say(ping == nil ? "web.contacts.allAnswered" : "web.contacts.answered")
            }
        }
    }

    func roles(_ form: [String: String]) -> ContactRoles {
        var roles: ContactRoles = []
        if form["responder"] == "on" || form["responder"] == "yes" { roles.insert(.responder) }
        if form["dependent"] == "on" || form["dependent"] == "yes" { roles.insert(.dependent) }
        return roles
    }

    /// The add-contact page again, with the code as typed and why it was refused.
    func refusedCode(_ typed: String, _ message: String, _ request: Request, _ context: WebContext) async throws -> Response {
        try await signedIn(context) { caller in
            let mine = contacts.contactCode(caller)
            return try await page(
                AddContactPage(mine, webLink: contactLink(request, context, mine.code), typed: typed, error: message),
                context: context, status: .badRequest)
        }
    }

    func contactLink(_ request: Request, _ context: WebContext, _ code: String) -> String {
        let host = request.head.authority ?? "localhost"
        return "\(context.secure ? "https" : "http")://\(host)/contact/\(code)"
    }
}

extension ContactRoutes {
    /// How long a declined request stays on its sender's Contacts.
    static let declinedShownFor: TimeInterval = 30 * 86400
}

extension WebController {
    /// "Ada declined your request to watch over her, yesterday at 18:02."
    static func declinedRequestText(_ request: ContactRequest) -> String {
        let key =
            switch (request.roles.isResponder, request.roles.isDependent) {
            case (true, true): "web.contacts.declinedEachOther"
            case (false, true): "web.contacts.declinedWatchThem"
            default: "web.contacts.declinedWatchYou"
            }
        return say(key, ["name": request.toName, "when": formatDate(request.decidedAt)])
    }

    static func outgoingRequestText(_ request: ContactRequest) -> String {
        let key =
            switch (request.roles.isResponder, request.roles.isDependent) {
            case (true, true): "web.contacts.askedEachOther"
            case (false, true): "web.contacts.askedWatchThem"
            default: "web.contacts.askedWatchYou"
            }
        return say(key, ["name": request.toName])
    }
}
