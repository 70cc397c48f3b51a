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
        router.on(Operations.lookUpContactCode) { path, context in
            try await contacts.lookUpContactCode(context.caller, code: path.code)
        }
        router.on(Operations.listContacts) { query, context in
            try await contacts.contacts(context.caller, sort: query.sort)
        }
        router.on(Operations.addContact) { body, context in
            try await contacts.addContact(context.caller, code: body.code, roles: body.roles)
        }
        router.on(Operations.listContactRequests) { _, context in
            try await contacts.contactRequests(context.caller)
        }
        router.on(Operations.acceptContactRequest) { input, body, context in
            try await contacts.acceptContactRequest(context.caller, id: input.id, roles: body.roles)
        }
        router.on(Operations.declineContactRequest) { input, context in
            try await contacts.declineContactRequest(context.caller, id: input.id)
        }
        router.on(Operations.createDailyCallSetup) { body, context in
            try await dailyCallSetups.setUp(
                context.caller, firstName: body.firstName, lastName: body.lastName ?? "", phone: body.phone, time: body.time,
                timeZone: body.timeZone, language: body.language)
        }
        router.on(Operations.setContactAway) { input, body, context in
            try await dailyCallSetups.setAway(context.caller, person: input.id, until: body.until)
        }
        router.on(Operations.listDailyCallSetups) { _, context in
            try await dailyCallSetups.list(context.caller)
        }
        router.on(Operations.cancelDailyCallSetup) { input, context in
            try await dailyCallSetups.cancel(context.caller, id: input.id)
        }
        router.on(Operations.getContact) { input, context in
            try await contacts.contact(context.caller, id: input.id)
        }
        router.on(Operations.updateContactRoles) { input, body, context in
            let id = input.id
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
        router.on(Operations.removeContact) { input, context in
            try await contacts.removeContact(context.caller, contact: input.id)
        }
        router.on(Operations.getContactStatus) { input, context in
            try await checkIns.status(context.caller, of: input.id)
        }
        router.on(Operations.checkInOnBehalf) { input, body, context in
            let id = input.id
            return try await incidents.checkInOnBehalf(context.caller, of: id, id: body.id)
        }
        router.on(Operations.sendPing) { input, context in
            try await pings.ping(context.caller, dependent: input.id)
        }
        router.on(Operations.clearPing) { input, context in
            try await pings.clearPing(context.caller, id: input.id)
        }
        router.on(Operations.answerPing) { input, body, context in
            let id = input.id
            return try await pings.answerPings(context.caller, id: id, checkInID: body.id)
        }
        router.on(Operations.answerPingWithHelp) { input, context in
            try await pings.answerPingWithHelp(context.caller, id: input.id)
        }
        router.on(Operations.answerAllPings) { body, context in
            try await pings.answerPings(context.caller, id: nil, checkInID: body.id)
        }
    }
}
