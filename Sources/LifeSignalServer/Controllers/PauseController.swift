import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// Days off (`/v1/me/pauses`): pauses planned ahead or from now. Only the person herself
/// reaches these; her responders see the pause that holds (and the next) on her status.
struct PauseController {
    let pauses: Pauses

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.listPauses) { _, context in
            try await pauses.list(context.caller)
        }
        router.on(Operations.addPause) { body, context in
            try await pauses.add(context.caller, from: body.from, until: body.until, openIncident: body.openIncident)
        }
        router.on(Operations.removePause) { input, context in
            try await pauses.remove(context.caller, pause: input.id)
        }
    }
}
