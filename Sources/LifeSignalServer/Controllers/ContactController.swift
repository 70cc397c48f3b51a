import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels
import LifeSignalRules

/// Contact codes, links and roles, and what responders do for a dependent.
struct ContactController {
    let contacts: Contacts
    let pings: Pings
    let incidents: Incidents
    let checkIns: CheckIns
    let dailyCallSetups: DailyCallSetups

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.getContactCode) { _, context in
            contacts.contactCode(context.caller)
        }
        router.on(Operations.rotateContactCode) { _, context in
            try await contacts.rotateContactCode(context.caller)
        }
        router.on(Operations.lookUpContactCode) { _, context in
            try await contacts.lookUpContactCode(context.caller, code: context.parameters.require("code"))
        }
        router.on(Operations.listContacts) { request, context in
            let sort = try request.query("sort", ContactSort.init(rawValue:)) ?? .urgency
            return try await contacts.contacts(context.caller, sort: sort)
        }
        router.on(Operations.addContact) { body, context in
            try await contacts.addContact(context.caller, code: body.code, roles: body.roles)
        }
        router.on(Operations.listContactRequests) { _, context in
            try await contacts.contactRequests(context.caller)
        }
        router.on(Operations.acceptContactRequest) { body, context in
            try await contacts.acceptContactRequest(context.caller, id: try context.id(), roles: body.roles)
        }
        router.on(Operations.declineContactRequest) { _, context in
            try await contacts.declineContactRequest(context.caller, id: try context.id())
        }
        router.on(Operations.createDailyCallSetup) { body, context in
            try await dailyCallSetups.setUp(
                context.caller, firstName: body.firstName, lastName: body.lastName ?? "", phone: body.phone, time: body.time,
                timeZone: body.timeZone, language: body.language)
        }
        router.on(Operations.setContactAway) { body, context in
            try await dailyCallSetups.setAway(context.caller, person: try context.id(), until: body.until)
        }
        router.on(Operations.listDailyCallSetups) { _, context in
            try await dailyCallSetups.list(context.caller)
        }
        router.on(Operations.cancelDailyCallSetup) { _, context in
            try await dailyCallSetups.cancel(context.caller, id: try context.id())
        }
        router.on(Operations.getContact) { _, context in
            try await contacts.contact(context.caller, id: try context.id())
        }
        router.on(Operations.updateContactRoles) { body, context in
            let id: UserID = try context.id()
            var contact: Contact?
            if let roles = body.roles { contact = try await contacts.updateRoles(context.caller, contact: id, roles: roles) }
            if let keyHolder = body.keyHolder {
                contact = try await contacts.setKeyHolder(context.caller, contact: id, keyHolder: keyHolder)
            }
            guard let contact else {
                throw ServiceError(.invalid, code: .invalidRoles, Said("error.contact.nothingToChange"), field: "roles")
            }
            return contact
        }
        router.on(Operations.removeContact) { _, context in
            try await contacts.removeContact(context.caller, contact: try context.id())
        }
        router.on(Operations.getContactStatus) { _, context in
            try await checkIns.status(context.caller, of: try context.id())
        }
        router.on(Operations.checkInOnBehalf) { body, context in
            let id: UserID = try context.id()
            return try await incidents.checkInOnBehalf(context.caller, of: id, id: body.id)
        }
        router.on(Operations.sendPing) { _, context in
            try await pings.ping(context.caller, dependent: try context.id())
        }
        router.on(Operations.clearPing) { _, context in
            try await pings.clearPing(context.caller, id: try context.id())
        }
        router.on(Operations.answerPing) { body, context in
            let id: PingID = try context.id()
            return try await pings.answerPings(context.caller, id: id, checkInID: body.id)
        }
        router.on(Operations.answerPingWithHelp) { _, context in
            try await pings.answerPingWithHelp(context.caller, id: try context.id())
        }
        router.on(Operations.answerAllPings) { body, context in
            try await pings.answerPings(context.caller, id: nil, checkInID: body.id)
        }
    }
}
