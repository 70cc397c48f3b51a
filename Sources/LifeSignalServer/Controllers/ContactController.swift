import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels
import LifeSignalRules

/// Contact codes, links and roles, and what responders do for a dependent.
struct ContactController {
    let service: LifeSignalService

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.getContactCode) { _, context in
            service.contactCode(context.caller).json()
        }
        router.on(Operations.rotateContactCode) { _, context in
            try await service.rotateContactCode(context.caller).json()
        }
        router.on(Operations.lookUpContactCode) { _, context in
            try await service.lookUpContactCode(context.caller, code: context.parameters.require("code")).json()
        }
        router.on(Operations.listContacts) { request, context in
            let sort = try request.query("sort", ContactSort.init(rawValue:)) ?? .urgency
            return try await service.contacts(context.caller, sort: sort).json()
        }
        router.on(Operations.addContact) { request, context in
            let body = try await request.decode(as: AddContactBody.self, context: context)
            return try await service.addContact(context.caller, code: body.code, roles: body.roles).json(.accepted)
        }
        router.on(Operations.listContactRequests) { _, context in
            try await service.contactRequests(context.caller).json()
        }
        router.on(Operations.acceptContactRequest) { _, context in
            try await service.acceptContactRequest(context.caller, id: try context.id()).json()
        }
        router.on(Operations.declineContactRequest) { _, context in
            try await service.declineContactRequest(context.caller, id: try context.id()).json()
        }
        router.on(Operations.getContact) { _, context in
            try await service.contact(context.caller, id: try context.id()).json()
        }
        router.on(Operations.updateContactRoles) { request, context in
            let id: UserID = try context.id()
            let body = try await request.decode(as: RolesBody.self, context: context)
            return try await service.updateRoles(context.caller, contact: id, roles: body.roles).json()
        }
        router.on(Operations.removeContact) { _, context in
            try await service.removeContact(context.caller, contact: try context.id())
            return NoContent()
        }
        router.on(Operations.getContactStatus) { _, context in
            try await service.status(context.caller, of: try context.id()).json()
        }
        router.on(Operations.checkInOnBehalf) { request, context in
            let id: UserID = try context.id()
            let body = try await request.decode(as: CheckInBody.self, context: context)
            return try await service.checkInOnBehalf(context.caller, of: id, id: body.id).json()
        }
        router.on(Operations.sendPing) { _, context in
            try await service.ping(context.caller, dependent: try context.id()).json(.created)
        }
        router.on(Operations.clearPing) { _, context in
            try await service.clearPing(context.caller, id: try context.id())
            return NoContent()
        }
        router.on(Operations.answerPing) { request, context in
            let id: PingID = try context.id()
            let body = try await request.decode(as: CheckInBody.self, context: context)
            return try await service.answerPings(context.caller, id: id, checkInID: body.id).json()
        }
        router.on(Operations.answerPingWithHelp) { _, context in
            try await service.answerPingWithHelp(context.caller, id: try context.id()).json(.created)
        }
        router.on(Operations.answerAllPings) { request, context in
            let body = try await request.decode(as: CheckInBody.self, context: context)
            return try await service.answerPings(context.caller, id: nil, checkInID: body.id).json()
        }
    }
}
